// strings.js - the module API's ASN.1 string functions: js/strings.js's, on
// the default instance (js/core.js current()). Each marks the string module
// (js/surface.js), so that init() loads it.

import { STRINGS, current, uses } from '../core.js';
import { stringsOf } from '../strings.js';

/** string | Uint16Array -> BMPString content (big-endian UCS-2). */
export const encodeBMP = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).encodeBMP(value));
/** BMPString content -> string. */
export const decodeBMP = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeBMP(bytes));
/** BMPString content -> Uint16Array of its chars. */
export const decodeBMPToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeBMPToUint16(bytes));
/** string | Uint16Array -> DER BMPString. */
export const writeBMPString = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).writeBMPString(value));
/** The DER BMPString at bytes[offset] -> { value, end }. */
export const readBMPString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => stringsOf(current()).readBMPString(bytes, offset));

/** string | Uint16Array -> IA5String content (0x00-0x7F, one byte a char). */
export const encodeIA5 = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).encodeIA5(value));
/** IA5String content -> string. */
export const decodeIA5 = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeIA5(bytes));
/** IA5String content -> Uint16Array of its chars. */
export const decodeIA5ToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeIA5ToUint16(bytes));
/** string | Uint16Array -> DER IA5String. */
export const writeIA5String = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).writeIA5String(value));
/** The DER IA5String at bytes[offset] -> { value, end }. */
export const readIA5String = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => stringsOf(current()).readIA5String(bytes, offset));

/** string | Uint16Array -> VisibleString content (0x20-0x7E, one byte a char). */
export const encodeVisible = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).encodeVisible(value));
/** VisibleString content -> string. */
export const decodeVisible = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeVisible(bytes));
/** VisibleString content -> Uint16Array of its chars. */
export const decodeVisibleToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeVisibleToUint16(bytes));
/** string | Uint16Array -> DER VisibleString. */
export const writeVisibleString = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).writeVisibleString(value));
/** The DER VisibleString at bytes[offset] -> { value, end }. */
export const readVisibleString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => stringsOf(current()).readVisibleString(bytes, offset));

/** string | Uint16Array -> PrintableString content (A-Z a-z 0-9 space ' ( ) + , - . / : = ?). */
export const encodePrintable = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).encodePrintable(value));
/** PrintableString content -> string. */
export const decodePrintable = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodePrintable(bytes));
/** PrintableString content -> Uint16Array of its chars. */
export const decodePrintableToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodePrintableToUint16(bytes));
/** string | Uint16Array -> DER PrintableString. */
export const writePrintableString = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).writePrintableString(value));
/** The DER PrintableString at bytes[offset] -> { value, end }. */
export const readPrintableString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => stringsOf(current()).readPrintableString(bytes, offset));

/** string | Uint16Array -> NumericString content (0-9 and space). */
export const encodeNumeric = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).encodeNumeric(value));
/** NumericString content -> string. */
export const decodeNumeric = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeNumeric(bytes));
/** NumericString content -> Uint16Array of its chars. */
export const decodeNumericToUint16 = /* @__PURE__ */ uses(STRINGS, (bytes) => stringsOf(current()).decodeNumericToUint16(bytes));
/** string | Uint16Array -> DER NumericString. */
export const writeNumericString = /* @__PURE__ */ uses(STRINGS, (value) => stringsOf(current()).writeNumericString(value));
/** The DER NumericString at bytes[offset] -> { value, end }. */
export const readNumericString = /* @__PURE__ */ uses(STRINGS, (bytes, offset) => stringsOf(current()).readNumericString(bytes, offset));
