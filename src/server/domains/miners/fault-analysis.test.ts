import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '@shared/schemas/fault-analysis';
import { LOCALES } from '@shared/validation';
import { findingTexts } from './fault-analysis';

describe('fault analysis texts', () => {
  it('has a reason and a suggestion for every finding in every language, with its figures filled in', () => {
    const params = { missed: 3, board: 2, chips: 54, expected: 108, temp: 97, fan: 3, rpm: 1200, fastest: 4400, pools: 2, percent: 61, count: 5000, pool: 'stratum+tcp://p.example:3333', code: 530, message: 'SM0 not found', minutes: 4 };
    for (const locale of LOCALES) {
      for (const code of FINDING_CODES) {
        const f = findingTexts(locale, { code, severity: 'warning', params });
        expect(f.reason, `${locale} ${code}`).not.toBe(`analysis.${code}.reason`);
        expect(f.suggestion, `${locale} ${code}`).not.toBe(`analysis.${code}.suggestion`);
        expect(`${f.reason} ${f.suggestion}`, `${locale} ${code}`).not.toMatch(/\{\{/);
      }
    }
    expect(findingTexts('en-US', { code: 'missingChips', severity: 'critical', params }).reason).toBe('Hashboard 2 finds 54 of 108 chips.');
    expect(findingTexts('zh-CN', { code: 'missingChips', severity: 'critical', params }).reason).toBe('算力板 2 检测到 54/108 颗芯片。');
  });
});
