// strings.js - the module API's ASN.1 string functions: js/strings.js's, on
// the default instance (js/core.js current()). Each marks the string module
// (js/surface.js), so that init() loads it.

import { STRINGS, current, uses } from '../core.js';
import * as strings from '../strings.js';

/** string | Uint16Array -> BMPString content (big-endian UCS-2). */
export const encodeBMP = /* @__PURE__ */ uses(STRINGS, (value) => strings.encodeBMP(current(), value));
/** BMPString content -> string. */
export const decodeBMP = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeBMP(current(), bytes));
/** BMPString content -> Uint16Array of its chars. */
export const decodeBMPToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeBMPToUint16(current(), bytes));
/** string | Uint16Array -> DER BMPString. */
export const writeBMPString = /* @__PURE__ */ uses(STRINGS, (value) => strings.writeBMPString(current(), value));
/** The DER BMPString at bytes[offset] -> { value, end }. */
export const readBMPString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => strings.readBMPString(current(), bytes, offset));

/** string | Uint16Array -> IA5String content (0x00-0x7F, one byte a char). */
export const encodeIA5 = /* @__PURE__ */ uses(STRINGS, (value) => strings.encodeIA5(current(), value));
/** IA5String content -> string. */
export const decodeIA5 = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeIA5(current(), bytes));
/** IA5String content -> Uint16Array of its chars. */
export const decodeIA5ToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeIA5ToUint16(current(), bytes));
/** string | Uint16Array -> DER IA5String. */
export const writeIA5String = /* @__PURE__ */ uses(STRINGS, (value) => strings.writeIA5String(current(), value));
/** The DER IA5String at bytes[offset] -> { value, end }. */
export const readIA5String = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => strings.readIA5String(current(), bytes, offset));

/** string | Uint16Array -> VisibleString content (0x20-0x7E, one byte a char). */
export const encodeVisible = /* @__PURE__ */ uses(STRINGS, (value) => strings.encodeVisible(current(), value));
/** VisibleString content -> string. */
export const decodeVisible = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeVisible(current(), bytes));
/** VisibleString content -> Uint16Array of its chars. */
export const decodeVisibleToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeVisibleToUint16(current(), bytes));
/** string | Uint16Array -> DER VisibleString. */
export const writeVisibleString = /* @__PURE__ */ uses(STRINGS, (value) => strings.writeVisibleString(current(), value));
/** The DER VisibleString at bytes[offset] -> { value, end }. */
export const readVisibleString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => strings.readVisibleString(current(), bytes, offset));

/** string | Uint16Array -> PrintableString content (A-Z a-z 0-9 space ' ( ) + , - . / : = ?). */
export const encodePrintable = /* @__PURE__ */ uses(STRINGS, (value) => strings.encodePrintable(current(), value));
/** PrintableString content -> string. */
export const decodePrintable = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodePrintable(current(), bytes));
/** PrintableString content -> Uint16Array of its chars. */
export const decodePrintableToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodePrintableToUint16(current(), bytes));
/** string | Uint16Array -> DER PrintableString. */
export const writePrintableString = /* @__PURE__ */ uses(STRINGS, (value) => strings.writePrintableString(current(), value));
/** The DER PrintableString at bytes[offset] -> { value, end }. */
export const readPrintableString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => strings.readPrintableString(current(), bytes, offset));

/** string | Uint16Array -> NumericString content (0-9 and space). */
export const encodeNumeric = /* @__PURE__ */ uses(STRINGS, (value) => strings.encodeNumeric(current(), value));
/** NumericString content -> string. */
export const decodeNumeric = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeNumeric(current(), bytes));
/** NumericString content -> Uint16Array of its chars. */
export const decodeNumericToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => strings.decodeNumericToUint16(current(), bytes));
/** string | Uint16Array -> DER NumericString. */
export const writeNumericString = /* @__PURE__ */ uses(STRINGS, (value) => strings.writeNumericString(current(), value));
/** The DER NumericString at bytes[offset] -> { value, end }. */
export const readNumericString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => strings.readNumericString(current(), bytes, offset));
