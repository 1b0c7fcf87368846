import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from './pglite-dialect';
import { PREPARED } from './prepared-statements';

describe('PREPARED statements on PGlite', () => {
  let pg: PGlite;
  let db: Kysely<unknown>;
  beforeAll(async () => {
    pg = await PGlite.create();
    db = new Kysely<unknown>({ dialect: new PGliteDialect(pg) });
    await pg.exec(`create table t (id uuid primary key, name text, n int, at timestamptz, ok boolean, doc jsonb);
      insert into t values ('2f86ee2a-4827-479d-b433-aa4ece58a2b4', 'a ''quoted'' "name" ✓', 1, '2026-03-10T08:00:00Z', true, '{"k":[1,2]}'),
                           ('b872d976-d6df-4c00-a406-87c060c57159', null, 2, null, false, null)`);
  });
  afterAll(async () => {
    await db.destroy();
    await pg.close();
  });

  const sqlText = `${PREPARED}select id, name, n, at, ok, doc from t where id = any($1::uuid[]) and n >= $2 and ($3::text is null or name like $3) and ok = any($4::boolean[]) order by n`;
  const run = (params: unknown[]) => db.executeQuery(CompiledQuery.raw(sqlText, params));

  it('answers what an unprepared statement answers, run after run, with every kind of parameter', async () => {
    const cases: unknown[][] = [
      [['2f86ee2a-4827-479d-b433-aa4ece58a2b4', 'b872d976-d6df-4c00-a406-87c060c57159'], 0, null, [true, false]],
      [['2f86ee2a-4827-479d-b433-aa4ece58a2b4'], 1, 'a %', [true]],
      [[], 0, null, [true]],
      [['b872d976-d6df-4c00-a406-87c060c57159'], 2, null, [false]],
    ];
    for (const params of cases) {
      const plain = await pg.query(sqlText.slice(PREPARED.length), params);
      expect((await run(params)).rows).toEqual(plain.rows);
      expect((await run(params)).rows).toEqual(plain.rows);
    }
    expect((await run(cases[0]!)).rows).toHaveLength(2);
  });

  it('reports an error and the connection goes on working, in and out of a transaction', async () => {
    const bad = `${PREPARED}select 1 / $1::int as v`;
    await expect(db.executeQuery(CompiledQuery.raw(bad, [0]))).rejects.toThrow(/division by zero/);
    expect((await db.executeQuery(CompiledQuery.raw(bad, [2]))).rows).toEqual([{ v: 0 }]);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw(`${PREPARED}update t set n = n + $1 where n = 1`, [10]));
        await trx.executeQuery(CompiledQuery.raw(bad, [0]));
      }),
    ).rejects.toThrow(/division by zero/);
    expect((await pg.query('select n from t order by n')).rows).toEqual([{ n: 1 }, { n: 2 }]); // rolled back
    expect((await run([['2f86ee2a-4827-479d-b433-aa4ece58a2b4'], 0, null, [true]])).rows).toHaveLength(1);
  });

  it('reads a result that arrives in several output chunks, and arrays, json and nulls as query() does', async () => {
    // ~3 MB of rows: PGlite hands its output over in chunks (pglite-rows.ts reads them joined).
    const big = `${PREPARED}select i, repeat(md5(i::text), 200) as s, array[i, null, 3] as a, json_build_object('i', i, 'n', null) as j,
                 case when i % 2 = 0 then null else '2026-03-10T08:00:00Z'::timestamptz + i * interval '1 second' end as at from generate_series(1, $1::int) i`;
    const plain = await pg.query(big.slice(PREPARED.length), [500]);
    const got = (await db.executeQuery(CompiledQuery.raw(big, [500]))).rows;
    expect(got).toEqual(plain.rows);
    expect(got).toHaveLength(500);
    expect(got[1]).toMatchObject({ i: 2, a: [2, null, 3], j: { i: 2, n: null }, at: null });
  });

  it('raises the error with the fields PostgreSQL gives, and a statement without rows answers none', async () => {
    const bad = `${PREPARED}select 1 / $1::int as v`;
    const err = (await db.executeQuery(CompiledQuery.raw(bad, [0])).catch((e: unknown) => e)) as Record<string, unknown>;
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ message: 'division by zero', code: '22012', severity: 'ERROR' });
    const none = `${PREPARED}update t set n = n where n = $1::int`;
    expect((await db.executeQuery(CompiledQuery.raw(none, [99]))).rows).toEqual([]);
  });
});
