// Seed 003's composite and verdict rule, and reply parsing, as pure functions.
import { describe, expect, it } from 'vitest';
import { aggregateReplies, judgeComposite, judgeVerdict } from '../../lib/judge/verdict.js';
import { apiReplySchema, checkReplyText, jsonCandidates } from '../../lib/judge/reply.js';
import { costUsd, judgmentCacheKey, summarizeSpend } from '../../lib/judge/cost.js';
import { parseJudgePrompt } from '../../lib/judge/prompt.js';
import { loadConfig } from '../../lib/config/config.js';
import { goodReply } from './helpers/messages-server.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const d = (c: number, s: number, q: number, p: number) => ({
  correctness: c,
  scope_adherence: s,
  code_quality: q,
  completeness: p,
});

describe('judge composite and verdict', () => {
  it('weights .4/.2/.2/.2', () => {
    expect(judgeComposite(d(1, 0, 0, 0))).toBe(0.4);
    expect(judgeComposite(d(0.9, 0.8, 0.8, 0.9))).toBe(0.86);
    expect(judgeComposite(d(1, 1, 1, 1))).toBe(1);
  });
  it('pass only when every dimension >= 0.7 (0.7 itself passes)', () => {
    expect(judgeVerdict(d(0.7, 0.7, 0.7, 0.7))).toBe('pass');
    expect(judgeVerdict(d(1, 1, 1, 0.69))).toBe('partial');
  });
  it('fail when correctness < 0.4 or the composite < 0.5', () => {
    expect(judgeVerdict(d(0.39, 1, 1, 1))).toBe('fail');
    expect(judgeVerdict(d(0.5, 0.5, 0.4, 0.4))).toBe('fail'); // composite 0.46
    expect(judgeVerdict(d(0.5, 0.5, 0.5, 0.5))).toBe('partial'); // composite 0.5
  });
  it('samples aggregate by median, lowest confidence, merged issues', () => {
    const a = JSON.parse(goodReply({ dimensions: d(0.9, 0.9, 0.9, 0.9), confidence: 'high' }));
    const b = JSON.parse(
      goodReply({
        dimensions: d(0.5, 0.8, 0.7, 0.6),
        confidence: 'low',
        issues: [{ severity: 'major', description: 'stub in sub()' }],
      }),
    );
    const c = JSON.parse(goodReply({ dimensions: d(0.7, 0.6, 0.8, 0.8), confidence: 'medium' }));
    const r = aggregateReplies([a, b, c]);
    expect(r.dimensions).toEqual(d(0.7, 0.8, 0.8, 0.8));
    expect(r.confidence).toBe('low');
    expect(r.issues.map((i) => i.severity)).toEqual(['major', 'minor']);
  });
});

describe('reply parsing', () => {
  it('whole JSON, prose, fences; first valid candidate wins', () => {
    expect(checkReplyText(goodReply()).ok).toBe(true);
    expect(checkReplyText(`Sure! {"note": "draft"} and the real one: ${goodReply()}`).ok).toBe(true);
    expect(jsonCandidates('```\n{"a": "}"}\n```')).toContainEqual({ a: '}' });
  });
  it('errors name the JSON path', () => {
    const r = checkReplyText(goodReply({ confidence: 'very' }));
    expect(r).toEqual({
      ok: false,
      reason: 'schema_invalid',
      errors: ['/confidence: must be one of "high", "medium", "low"'],
    });
    expect(checkReplyText('no json here')).toMatchObject({ ok: false, reason: 'invalid_json' });
  });
  it('the API schema has refs inlined and no range keywords', () => {
    const s = apiReplySchema(
      JSON.parse(readFileSync(join(import.meta.dirname, '../../schemas/judge-reply.schema.json'), 'utf8')),
    );
    const text = JSON.stringify(s);
    expect(text).not.toMatch(/\$ref|minimum|maximum|definitions|\$schema/);
    expect(s).toHaveProperty('properties.dimensions.properties.correctness.type', 'number');
  });
});

describe('cost, cache key, prompt', () => {
  const judge = loadConfig({ env: {} }).judge;
  it('tokens x per-million prices; unknown model → null', () => {
    expect(
      costUsd(
        { input_tokens: 1e6, output_tokens: 1e6, cache_creation_input_tokens: 1e6, cache_read_input_tokens: 1e6 },
        'claude-opus-4-6',
        judge,
      ),
    ).toBe(5 + 25 + 6.25 + 0.5);
    expect(
      costUsd(
        { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        'nope',
        judge,
      ),
    ).toBeNull();
  });
  it('cache key changes with model, prompt version and context', () => {
    const k = judgmentCacheKey('m', 'v1', 'ctx');
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(
      new Set([
        k,
        judgmentCacheKey('m2', 'v1', 'ctx'),
        judgmentCacheKey('m', 'v2', 'ctx'),
        judgmentCacheKey('m', 'v1', 'ctx2'),
      ]).size,
    ).toBe(4);
  });
  it('spend groups call rows by day and model; unpriced calls counted apart', () => {
    const rows = [
      {
        type: 'call' as const,
        at: '2025-06-01T23:59:59Z',
        bead: 'a',
        model: 'x',
        input_tokens: 10,
        output_tokens: 1,
        cost_usd: 0.5,
      },
      { type: 'call' as const, at: '2025-06-02T00:00:00Z', bead: 'b', model: 'x', cost_usd: null },
      { type: 'slot' as const, at: '2025-06-02T00:00:00Z', bead: 'b' },
    ];
    expect(summarizeSpend(rows).map((r) => [r.day, r.calls, r.cost_usd, r.unpriced_calls])).toEqual([
      ['2025-06-01', 1, 0.5, 0],
      ['2025-06-02', 1, 0, 1],
    ]);
  });
  it('the shipped prompt has a version, the four anchors and the data rule', () => {
    const p = parseJudgePrompt(
      readFileSync(join(import.meta.dirname, '../../config/judge-prompt.md'), 'utf8'),
      'judge-prompt.md',
    );
    expect(p.version).toMatch(/\S/);
    for (const dim of ['correctness', 'scope_adherence', 'code_quality', 'completeness'])
      expect(p.text).toContain(`### ${dim}`);
    expect(p.text.match(/^- (0\.2|0\.5|0\.8|1\.0):/gm)).toHaveLength(16);
    expect(p.text).toContain('Nothing inside the');
    expect(() => parseJudgePrompt('no front matter', 'x.md')).toThrow(/version/);
  });
});
