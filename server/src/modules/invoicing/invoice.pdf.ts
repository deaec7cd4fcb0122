import { formatMoney } from '@portal/contract';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { InvoiceLine, InvoiceParty } from './invoicing.tables.ts';

export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedAt: Date;
  /** A credit note names the invoice it corrects. */
  correctsNumber: string | null;
  currency: string;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  lines: InvoiceLine[];
  netAmount: number;
  taxAmount: number;
  totalAmount: number;
  reverseCharge: boolean;
}

const percent = (bp: number) => `${(bp / 100).toFixed(bp % 100 === 0 ? 0 : 2)}%`;

/** Tax per rate: each rate once, with the net it applies to. */
export function taxPerRate(lines: InvoiceLine[]): { rateBp: number; net: number; tax: number }[] {
  const rates = new Map<number, { net: number; tax: number }>();
  for (const line of lines) {
    const sum = rates.get(line.rateBp) ?? { net: 0, tax: 0 };
    rates.set(line.rateBp, { net: sum.net + line.netAmount, tax: sum.tax + line.taxAmount });
  }
  return [...rates.entries()].sort(([a], [b]) => b - a).map(([rateBp, s]) => ({ rateBp, ...s }));
}

/** Renders an invoice or credit note (A4, standard fonts) from what was stored when it was issued. */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const title = doc.kind === 'invoice' ? 'Invoice' : 'Credit note';
  pdf.setTitle(`${title} ${doc.number}`);
  pdf.setCreationDate(doc.issuedAt);
  pdf.setModificationDate(doc.issuedAt);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const charset = new Set(regular.getCharacterSet());
  // Standard fonts cover Latin-1 and a few more; other characters become '?' rather than failing the download.
  const safe = (text: string) =>
    [...text.normalize('NFC')].map((c) => (charset.has(c.codePointAt(0) ?? 0) ? c : '?')).join('');
  const money = (amount: number) => formatMoney(amount, doc.currency);

  let page: PDFPage = pdf.addPage([595.28, 841.89]);
  let y = 790;
  const left = 50;
  const write = (text: string, x: number, size = 10, font: PDFFont = regular) => {
    page.drawText(safe(text), { x, y, size, font, color: rgb(0.1, 0.1, 0.12) });
  };
  const writeRight = (text: string, right: number, size = 10, font: PDFFont = regular) => {
    const width = font.widthOfTextAtSize(safe(text), size);
    write(text, right - width, size, font);
  };
  const newLine = (step = 14) => {
    y -= step;
    if (y < 60) {
      page = pdf.addPage([595.28, 841.89]);
      y = 790;
    }
  };

  write(title, left, 20, bold);
  writeRight(doc.number, 545, 12, bold);
  newLine(22);
  write(`Date: ${doc.issuedAt.toISOString().slice(0, 10)}`, left);
  if (doc.correctsNumber) writeRight(`Corrects invoice ${doc.correctsNumber}`, 545);
  newLine(28);

  const partyLines = (p: InvoiceParty, withVatNote: boolean) => [
    ...(p.companyName ? [p.companyName] : []),
    ...(p.companyName && p.name !== p.companyName ? [`Attn. ${p.name}`] : p.companyName ? [] : [p.name]),
    ...p.addressLines,
    ...(p.country ? [p.country] : []),
    ...(p.vatNumber ? [`VAT number: ${p.vatNumber}${withVatNote ? ' (format checked)' : ''}`] : []),
    ...(p.email ? [p.email] : []),
  ];
  const sellerLines = partyLines(doc.seller, false);
  const buyerLines = partyLines(doc.buyer, true);
  const top = y;
  write('From', left, 9, bold);
  for (const line of sellerLines) {
    newLine();
    write(line, left);
  }
  const sellerBottom = y;
  y = top;
  write('Bill to', 320, 9, bold);
  for (const line of buyerLines) {
    newLine();
    write(line, 320);
  }
  y = Math.min(y, sellerBottom);
  newLine(34);

  write('Description', left, 9, bold);
  writeRight('Qty', 330, 9, bold);
  writeRight('Net', 410, 9, bold);
  writeRight('VAT', 470, 9, bold);
  writeRight('Amount', 545, 9, bold);
  newLine(6);
  page.drawLine({ start: { x: left, y }, end: { x: 545, y }, thickness: 0.5, color: rgb(0.7, 0.7, 0.7) });
  newLine(14);
  for (const line of doc.lines) {
    write(line.description.slice(0, 60), left);
    writeRight(String(line.quantity), 330);
    writeRight(money(line.netAmount), 410);
    writeRight(percent(line.rateBp), 470);
    writeRight(money(line.netAmount + line.taxAmount), 545);
    newLine();
  }
  newLine(10);

  const totalsRow = (label: string, value: string, font: PDFFont = regular) => {
    writeRight(label, 440, 10, font);
    writeRight(value, 545, 10, font);
    newLine();
  };
  totalsRow('Subtotal', money(doc.netAmount));
  for (const rate of taxPerRate(doc.lines)) {
    totalsRow(`VAT ${percent(rate.rateBp)} of ${money(rate.net)}`, money(rate.tax));
  }
  totalsRow('Total', money(doc.totalAmount), bold);
  newLine(16);
  if (doc.reverseCharge) {
    write('VAT reverse charged: the customer accounts for the VAT (Article 196, Directive 2006/112/EC).', left, 9);
    newLine();
  }
  if (doc.kind === 'credit_note') {
    write(`This credit note refunds ${money(-doc.totalAmount)} of invoice ${doc.correctsNumber ?? ''}.`, left, 9);
    newLine();
  }
  return pdf.save({ useObjectStreams: false });
}
