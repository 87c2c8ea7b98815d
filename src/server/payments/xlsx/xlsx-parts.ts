/**
 * The parts of the xlsx package besides the worksheets (ECMA-376 part 1 and OPC, part 2): the
 * content types, the relationships, the workbook (its sheets, in tab order) and the styles the
 * cells name. Only what Excel and LibreOffice need to open the file, its dates and its amounts:
 * no theme, no shared strings (cells are inline strings, xlsx-cells.ts), no document properties.
 */
import { xmlText } from './xlsx-cells.js';

const mainNs = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The MIME type of an xlsx file. */
export const xlsxContentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * `[Content_Types].xml`, written first (file(1) and some readers look for it there). Every `.xml`
 * part defaults to a worksheet, so the list need not know how many sheets the file will have.
 */
export const contentTypesXml =
  `${declaration}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

export const packageRelsXml =
  `${declaration}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${relNs}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const maxAmountDecimals = 6;

/** The styles the cells use (cellXfs indices). */
export const xlsxStyles = {
  header: 1,
  /** A UTC date and time, to the second. */
  dateTime: 2,
  /** Amounts with 0 to 6 decimals are styles 3 to 9: `#,##0`, `#,##0.0`, `#,##0.00`, ... */
  amount: (decimals: number) => 3 + Math.min(Math.max(decimals, 0), maxAmountDecimals),
};

export const dateTimeFormat = 'yyyy-mm-dd hh:mm:ss';

/** `#,##0` for 0 decimals, `#,##0.00` for 2. */
export const amountFormat = (decimals: number) => (decimals === 0 ? '#,##0' : `#,##0.${'0'.repeat(decimals)}`);

export const stylesXml = (() => {
  const amountFormats = Array.from({ length: maxAmountDecimals + 1 }, (_, decimals) => amountFormat(decimals));
  const numFmts = [dateTimeFormat, ...amountFormats].map((code, index) => `<numFmt numFmtId="${164 + index}" formatCode="${xmlText(code)}"/>`);
  const xfs = [
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>',
    ...amountFormats.map((_, decimals) => `<xf numFmtId="${165 + decimals}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`),
  ];
  return (
    `${declaration}<styleSheet xmlns="${mainNs}">` +
    `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>'
  );
})();

/** A sheet of the workbook: its tab's name, its part, and the range its header's filter covers (if any). */
export interface XlsxSheet {
  name: string;
  part: string;
  filter?: string;
}

/** `xl/workbook.xml`, the sheets in tab order, written last (the payments may need several sheets). */
export function workbookXml(sheets: readonly XlsxSheet[]): string {
  const quoted = (name: string) => `'${name.replaceAll("'", "''")}'`;
  const filters = sheets.flatMap((sheet, index) =>
    sheet.filter ? [`<definedName name="_xlnm._FilterDatabase" localSheetId="${index}" hidden="1">${xmlText(`${quoted(sheet.name)}!${sheet.filter}`)}</definedName>`] : [],
  );
  return (
    `${declaration}<workbook xmlns="${mainNs}" xmlns:r="${relNs}">` +
    `<sheets>${sheets.map((sheet, index) => `<sheet name="${xmlText(sheet.name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join('')}</sheets>` +
    (filters.length > 0 ? `<definedNames>${filters.join('')}</definedNames>` : '') +
    '</workbook>'
  );
}

/** `xl/_rels/workbook.xml.rels`: the sheets' parts by id (rId1...), then the styles. */
export function workbookRelsXml(sheets: readonly XlsxSheet[]): string {
  const rels = sheets.map((sheet, index) => `<Relationship Id="rId${index + 1}" Type="${relNs}/worksheet" Target="${sheet.part.replace(/^xl\//, '')}"/>`);
  rels.push(`<Relationship Id="rId${sheets.length + 1}" Type="${relNs}/styles" Target="styles.xml"/>`);
  return `${declaration}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`;
}

/** A worksheet's start: its view (the first row frozen when `freezeHeader`) and its columns' widths. */
export function worksheetStart(widths: readonly number[], freezeHeader: boolean): string {
  const pane = freezeHeader ? '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' : '';
  const cols = widths.map((width, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`).join('');
  return `${declaration}<worksheet xmlns="${mainNs}" xmlns:r="${relNs}"><sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews><cols>${cols}</cols><sheetData>`;
}

/** A worksheet's end, with the filter on its header row when it has one. */
export function worksheetEnd(filter?: string): string {
  return `</sheetData>${filter ? `<autoFilter ref="${filter}"/>` : ''}</worksheet>`;
}
