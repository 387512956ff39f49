// text.js - the wording that error messages share. A leaf module.

/** "a Float32Array", "an Int8Array", "a Uint8Array": a name with its article ("Uint" is said "you-int"). */
export const withArticle = (name) => `${/^[aeio]/i.test(name) ? 'an' : 'a'} ${name}`;

/** "1 byte", "2 bytes"; "1 entry", "2 entries" with the plural given. */
export const plural = (n, unit, units = `${unit}s`) => `${n} ${n === 1 ? unit : units}`;
