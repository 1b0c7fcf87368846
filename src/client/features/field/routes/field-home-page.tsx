import { FieldFullLoad } from './field-full-load';

/** Console route of /field: hands over to the light field app (full page load). */
export function FieldHomePage() {
  return <FieldFullLoad />;
}
