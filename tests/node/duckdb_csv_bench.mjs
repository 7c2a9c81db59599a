// Times DuckDB loading a CSV (CREATE TABLE AS SELECT * FROM read_csv) per thread count; prints JSON seconds.
//
// Usage: node duckdb_csv_bench.mjs FILE [--threads 1,2] [--repeat 3]
// Prints {"1": [s, s, s], "2": [...]}: wall seconds of each CREATE TABLE, in-process (no node start-up).
import { DuckDBInstance } from '@duckdb/node-api';

const argv = process.argv.slice(2);
const file = argv[0];
const opt = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt);
const threads = opt('--threads', '1,2').split(',').map(Number);
const repeat = Number(opt('--repeat', '3'));
const path = `'${file.replaceAll("'", "''")}'`;
const sql = `CREATE OR REPLACE TABLE t AS SELECT * FROM read_csv(${path}, header = true, delim = ',', ` +
  `quote = '"', escape = '"')`;

const result = {};
for (const n of threads) {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  await con.run(`SET threads = ${n}`);
  await con.run('SET preserve_insertion_order = true');
  result[n] = [];
  for (let i = 0; i < repeat; i++) {
    const start = process.hrtime.bigint();
    await con.run(sql);
    result[n].push(Number(process.hrtime.bigint() - start) / 1e9);
    const rows = (await con.runAndReadAll('SELECT count(*) FROM t')).getRowsJson()[0][0];
    result[`rows`] = Number(rows);
    await con.run('DROP TABLE t');
  }
  con.closeSync();
  instance.closeSync();
}
process.stdout.write(JSON.stringify(result) + '\n');
