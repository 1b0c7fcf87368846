/**
 * Page views (spec 1 §1): one POST to PublicConfig.analyticsEndpoint on every route change.
 * Failures are logged, never shown; offline the view is simply lost.
 */
export interface PageView {
  path: string;
  locale?: string;
  title?: string;
  referrer?: string;
}

export async function sendPageView(endpoint: string, view: PageView): Promise<void> {
  try {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(view)) if (v !== undefined && v !== '') body.set(k, String(v).slice(0, k === 'title' ? 200 : 500));
    const res = await fetch(endpoint, {
      method: 'POST',
      credentials: 'include',
      keepalive: true,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest' },
      body: body.toString(),
    });
    if (!res.ok) console.error(`analytics: page view answered ${res.status}`);
  } catch (err) {
    console.error('analytics: page view failed', err);
  }
}
