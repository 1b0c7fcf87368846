/** Creates and migrates the template database `hf_template` that the PostgreSQL suite clones per test file. */
import type { Kysely } from 'kysely';
import pg from 'pg';
import { migrate, postgresDatabase } from '@server/db/kysely';

const url = process.argv[2];
if (!url) throw new Error('usage: pg-template.ts <postgres url>');
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query('drop database if exists hf_template');
await admin.query('create database hf_template');
await admin.end();
const u = new URL(url);
u.pathname = '/hf_template';
const opened = postgresDatabase(u.toString(), 1);
await migrate(opened.db as unknown as Kysely<unknown>);
await opened.close();
console.log('hf_template migrated');
