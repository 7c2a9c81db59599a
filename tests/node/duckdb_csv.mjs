// Reads a CSV with DuckDB's read_csv (options mirroring recflow's reader) and prints its columns and rows as JSON.
//
// Usage: node duckdb_csv.mjs FILE [--null NA]... [--types '{"a":"BIGINT",...}'] [--delimiter C] [--no-header]
//                           [--sample-size N]
// Prints {"columns": [{"name", "type"}], "rows": [[...], ...]} where, per DuckDB type:
//   BIGINT (and other integers) -> decimal string; DOUBLE/FLOAT -> JSON number, or "NaN"/"Infinity"/"-Infinity";
//   BOOLEAN -> true/false; TIMESTAMP, TIMESTAMPTZ, DATE -> microseconds since 1970-01-01T00:00:00Z as a string;
//   VARCHAR -> string; NULL -> null.
import { DuckDBInstance } from '@duckdb/node-api';

function parseArgs(argv) {
  const args = { file: null, nulls: [], types: null, delimiter: ',', header: true, sampleSize: -1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--null') args.nulls.push(argv[++i]);
    else if (a === '--types') args.types = JSON.parse(argv[++i]);
    else if (a === '--delimiter') args.delimiter = argv[++i];
    else if (a === '--no-header') args.header = false;
    else if (a === '--sample-size') args.sampleSize = Number(argv[++i]);
    else if (args.file === null) args.file = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (args.file === null) throw new Error('usage: duckdb_csv.mjs FILE [options]');
  if (args.nulls.length === 0) args.nulls.push('');
  return args;
}

const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;
const sqlIdent = (s) => `"${String(s).replaceAll('"', '""')}"`;

function readCsvCall(args) {
  const options = [
    `header = ${args.header}`,
    `delim = ${sqlString(args.delimiter)}`,
    `quote = '"'`,
    `escape = '"'`,
    `nullstr = [${args.nulls.map(sqlString).join(', ')}]`,
    `allow_quoted_nulls = false`, // recflow: a quoted field never matches a null value
    `strict_mode = true`,
    `all_varchar = false`,
    `max_line_size = 16777216`,
  ];
  if (args.types) {
    const cols = Object.entries(args.types).map(([n, t]) => `${sqlString(n)}: ${sqlString(t)}`);
    options.push(`columns = {${cols.join(', ')}}`, 'auto_detect = false');
  } else {
    // recflow infers bool, int64, float64, timestamp (dates are midnight timestamps), utf8.
    options.push(`sample_size = ${args.sampleSize}`,
      `auto_type_candidates = ['BOOLEAN', 'BIGINT', 'DOUBLE', 'TIMESTAMP', 'TIMESTAMPTZ', 'VARCHAR']`);
  }
  return `read_csv(${sqlString(args.file)}, ${options.join(', ')})`;
}

function projection(name, type) {
  const col = sqlIdent(name);
  if (/^(TIMESTAMP|DATE)/.test(type)) return `CAST(epoch_us(${col}) AS VARCHAR) AS ${col}`;
  return col;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  await con.run("SET TimeZone = 'UTC'");
  const source = readCsvCall(args);
  const described = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJson();
  const columns = described.map((r) => ({ name: r.column_name, type: r.column_type }));
  const select = columns.map((c) => projection(c.name, c.type)).join(', ');
  const rows = (await con.runAndReadAll(`SELECT ${select} FROM ${source}`)).getRowsJson();
  process.stdout.write(JSON.stringify({ columns, rows }));
  process.stdout.write('\n');
  con.closeSync();
  instance.closeSync();
}

main().catch((err) => {
  process.stderr.write(`duckdb_csv: ${err.message}\n`);
  process.exit(1);
});
