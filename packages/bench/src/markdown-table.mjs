/**
 * The markdown tables of RESULTS.md: one helper for every section, so the
 * sections that run alone (`node src/postgres.mjs`) print the same tables.
 */

/** A markdown table: `columns` maps each row key to its heading; a missing cell is empty. */
export function markdownTable(columns, tableRows) {
  const keys = Object.keys(columns);
  return [keys.map((key) => columns[key]), keys.map(() => '---'), ...tableRows.map((row) => keys.map((key) => row[key] ?? ''))]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}
