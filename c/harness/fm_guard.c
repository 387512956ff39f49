/* fm_guard.c - guard-page test of every kernel at every length 0..300.
 *
 *   fm-guard            (exit 0 and a summary line, or a report and exit 1)
 *
 * Each input and each output lives in its own mapping between two PROT_NONE
 * pages. Every call runs twice: once with every buffer ending right before the
 * trailing guard page, once with every buffer starting right after the leading
 * one. A load or store past either end of a buffer then faults; the SIGSEGV
 * handler names the call and the address. Loads cannot be seen otherwise, so
 * the guards are what checks the read side (a SIMD block decoder must never
 * load past in + len). Stores are also checked byte for byte: the rest of each
 * mapping is filled with a canary beforehand, and after the call every byte
 * outside what the API lets the kernel write must still hold it, and every
 * input byte must be unchanged (in-place calls excepted).
 *
 * What the API lets a kernel write (c/fastmp.h): a packer, its output plus
 * FM_PACK_SLACK bytes (tested with the output ending there, and again ending at
 * the documented FM_PACK_BOUND); a decoder, `capacity` elements; the string
 * kernels, exactly their chars or bytes (fm_bmp_narrow: only the chars it
 * did, out[0, count)); the DER writers, header and content.
 * Results must also equal those of the same call on ordinary heap buffers.
 */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../fastmp.h"
#include "fm_ops.h" /* FM_TYPED_KERNELS */

#define MAX_N 300
#define CANARY 0xee

/* ---- guarded mappings ----------------------------------------------------- */

typedef struct region {
  uint8_t *lo, *hi; /* the accessible pages, between the two guards */
} region;

static size_t page;

static region map_region(size_t bytes) {
  size_t pages = (bytes + page - 1) / page;
  uint8_t *base = mmap(NULL, (pages + 2) * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
  if (base == MAP_FAILED) {
    perror("fm-guard: mmap");
    exit(2);
  }
  if (mprotect(base, page, PROT_NONE) || mprotect(base + (pages + 1) * page, page, PROT_NONE)) {
    perror("fm-guard: mprotect");
    exit(2);
  }
  return (region){base + page, base + (pages + 1) * page};
}

/* Where a buffer of `size` bytes goes: against the trailing guard, or the leading one. */
static uint8_t *place(const region *g, size_t size, bool at_end) {
  memset(g->lo, CANARY, (size_t)(g->hi - g->lo));
  return at_end ? g->hi - size : g->lo;
}

/* Every byte of g outside [keep, keep + size) still holds the canary. */
static uint8_t canary_bytes[1 << 14];

static bool all_canary(const uint8_t *p, size_t n) { return memcmp(p, canary_bytes, n) == 0; }

static bool canary_intact(const region *g, const uint8_t *keep, size_t size) {
  return all_canary(g->lo, (size_t)(keep - g->lo)) && all_canary(keep + size, (size_t)(g->hi - keep - size));
}

/* ---- reporting -------------------------------------------------------------- */

static char current[160]; /* the call in progress, for the fault handler */
static region IN, OUT;
static unsigned long calls, failures;

static void on_fault(int sig, siginfo_t *info, void *context) {
  (void)context;
  const uint8_t *a = info->si_addr;
  const char *where = "outside the guarded buffers";
  if (a >= IN.lo - page && a < IN.lo) where = "in the guard page before the input";
  if (a >= IN.hi && a < IN.hi + page) where = "in the guard page after the input";
  if (a >= OUT.lo - page && a < OUT.lo) where = "in the guard page before the output";
  if (a >= OUT.hi && a < OUT.hi + page) where = "in the guard page after the output";
  char msg[400];
  int len = snprintf(msg, sizeof msg, "fm-guard: signal %d at %p (%s) during %s\n", sig, info->si_addr,
                     where, current);
  if (write(2, msg, (size_t)len) < 0) _exit(1);
  _exit(1);
}

static void fail(const char *what) {
  if (failures++ < 20) fprintf(stderr, "fm-guard: %s: %s\n", current, what);
}

static bool same_result(const fm_result *a, const fm_result *b) {
  return a->code == b->code && a->count == b->count && a->index == b->index &&
         a->offset == b->offset && a->end == b->end && a->tag == b->tag && a->value == b->value;
}

/* ---- deterministic content ------------------------------------------------------ */

static uint32_t seed = 1;
static uint32_t rnd(void) { /* xorshift32 */
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}

/* ---- the typed kernels --------------------------------------------------------- */

/* The kernels by FM_TYPE_<name>, and the families of their types. */
static const fm_typed_kernels *const TYPES = FM_TYPED_KERNELS;
#define MARK(name, T, wire) [FM_TYPE_##name] = true,
static const bool IS_FLOAT[FM_TYPE_COUNT] = {FM_FLOAT_TYPES(MARK)};
static const bool IS_INTEGER[FM_TYPE_COUNT] = {FM_INT_TYPES(MARK)};

/* The element form of an integer type's own width: 0xcc (u8) to 0xcf (u64),
 * 0xd0 (i8) to 0xd3 (i64). */
static uint8_t own_tag(size_t t) {
  return (uint8_t)((TYPES[t].is_signed ? 0xd0 : 0xcc) + __builtin_ctzll(TYPES[t].size));
}

/* Typed-array contents, chosen to drive every SIMD path of the packers. */
enum { FILL_ZERO, FILL_FIXINT, FILL_WIDEST, FILL_MIXED, FILL_RANDOM, FILL_COUNT };
static const char *FILL_NAMES[] = {"zeros", "fixints", "widest", "mixed", "random"};

static void fill_typed(size_t t, int fill, uint8_t *out, size_t n) {
  size_t size = TYPES[t].size;
  for (size_t i = 0; i < n; i++) {
    uint64_t v = (uint64_t)rnd() << 32 | rnd();
    switch (fill) {
      case FILL_ZERO: v = 0; break;
      case FILL_FIXINT: v = TYPES[t].is_signed ? (uint64_t)(int64_t)((int)(v % 160) - 32) : v % 128; break;
      case FILL_WIDEST: v |= (uint64_t)1 << (8 * size - 2); break; /* a high bit: the widest form */
      case FILL_MIXED: v >>= rnd() % 64; break;                    /* every size class */
      default: break;
    }
    if (IS_FLOAT[t] && fill == FILL_FIXINT) { /* small integral floats */
      if (size == 4) {
        float f = (float)(int)(v % 100);
        memcpy(&v, &f, 4);
      } else {
        double d = (double)(int)(v % 100);
        memcpy(&v, &d, 8);
      }
    }
    memcpy(out + size * i, &v, size); /* little-endian low bytes */
  }
}

/* ---- msgpack inputs ------------------------------------------------------------- */

static size_t put_header(uint8_t *p, size_t n) {
  if (n <= 15) return p[0] = (uint8_t)(0x90 | n), 1;
  if (n <= 0xffff) return p[0] = 0xdc, p[1] = (uint8_t)(n >> 8), p[2] = (uint8_t)n, 3;
  p[0] = 0xdd;
  for (int k = 0; k < 4; k++) p[1 + k] = (uint8_t)(n >> (24 - 8 * k));
  return 5;
}

/* One element of a form: 0 fixint, else a tag whose payload is `bytes` of v, big-endian. */
static size_t put_element(uint8_t *p, uint8_t tag, size_t bytes, uint64_t v) {
  if (tag == 0) return p[0] = (uint8_t)v, 1;
  p[0] = tag;
  for (size_t k = 0; k < bytes; k++) p[1 + k] = (uint8_t)(v >> (8 * (bytes - 1 - k)));
  return 1 + bytes;
}

/* Element forms of the msgpack inputs. */
enum { FORM_OWN, FORM_FIXINT, FORM_F32, FORM_F64, FORM_MIXED, FORM_JUNK, FORM_COUNT };
static const char *FORM_NAMES[] = {"own-width", "fixint", "float32", "float64", "mixed", "junk"};

static size_t put_form(uint8_t *p, size_t t, int form) {
  static const uint8_t tags[] = {0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3};
  static const size_t payload[] = {4, 8, 1, 2, 4, 8, 1, 2, 4, 8};
  uint32_t v = rnd() % 100; /* fits every type */
  if (t == FM_TYPE_bool && form != FORM_JUNK) form = FORM_OWN;
  switch (form) {
    case FORM_OWN: {
      if (t == FM_TYPE_bool) return p[0] = (uint8_t)(0xc2 + (rnd() & 1)), 1;
      if (IS_FLOAT[t]) return put_form(p, t, t == FM_TYPE_f32 ? FORM_F32 : FORM_F64);
      return put_element(p, own_tag(t), TYPES[t].size, v);
    }
    case FORM_FIXINT: return put_element(p, 0, 0, TYPES[t].is_signed ? (uint64_t)(v % 128) - 32 : v);
    case FORM_F32: {
      float f = (float)v;
      uint32_t b;
      memcpy(&b, &f, 4);
      return put_element(p, 0xca, 4, b);
    }
    case FORM_F64: {
      double d = (double)v;
      uint64_t b;
      memcpy(&b, &d, 8);
      return put_element(p, 0xcb, 8, b);
    }
    case FORM_MIXED: {
      size_t k = rnd() % 11;
      if (k == 10) return put_element(p, 0, 0, v);
      uint64_t value = v;
      if (tags[k] == 0xca || tags[k] == 0xcb) return put_form(p, t, tags[k] == 0xca ? FORM_F32 : FORM_F64);
      return put_element(p, tags[k], payload[k], value);
    }
    default: /* any byte, then up to 8 more */
      p[0] = (uint8_t)rnd();
      return 1;
  }
}

/* ---- the checks ------------------------------------------------------------------ */

static _Alignas(16) uint8_t heap_out[16 * MAX_N + 64], heap_copy[16 * MAX_N + 64];

/* A packer: n elements in, output against the guard at its allowed end. */
static void check_pack(size_t t, int fill, size_t n, bool at_end) {
  size_t size = TYPES[t].size;
  _Alignas(16) uint8_t values[8 * MAX_N];
  fill_typed(t, fill, values, n);
  /* The output size, from an ordinary buffer. */
  size_t want = FM_TYPED_KERNELS[t].pack(values, n, heap_out);
  for (int bound = 0; bound < 2; bound++) {
    size_t room = bound ? FM_PACK_BOUND(n, TYPES[t].max_wire) : want + FM_PACK_SLACK;
    snprintf(current, sizeof current, "fm_pack_%s of %zu %s, input and output %s the guards%s",
             TYPES[t].name, n, FILL_NAMES[fill], at_end ? "ending at" : "starting after",
             bound ? " (output of FM_PACK_BOUND bytes)" : " (output of its size + FM_PACK_SLACK)");
    uint8_t *in = place(&IN, n * size, at_end);
    memcpy(in, values, n * size);
    uint8_t *out = place(&OUT, room, at_end);
    size_t got = FM_TYPED_KERNELS[t].pack(in, n, out);
    calls++;
    if (got != want || memcmp(out, heap_out, want) != 0) fail("output differs from the heap run");
    if (!canary_intact(&OUT, out, room)) fail("wrote outside its output");
    if (!canary_intact(&IN, in, n * size) || memcmp(in, values, n * size) != 0) fail("input changed");
  }
}

/* A decoder: msgpack `src` of len bytes; output of exactly the header's count. */
static void check_unpack(size_t t, uint32_t flags, const uint8_t *src, size_t len, const char *what,
                         bool at_end) {
  size_t size = TYPES[t].size;
  fm_result want, got;
  /* The count, as the JS boundary learns it: from the header (CAPACITY with room for none). */
  fm_code code = FM_TYPED_KERNELS[t].unpack(src, len, heap_out, 0, flags, &want);
  size_t count = code == FM_ERR_CAPACITY ? want.count : 0;
  FM_TYPED_KERNELS[t].unpack(src, len, heap_out, count, flags, &want);
  snprintf(current, sizeof current, "fm_unpack_%s%s of %zu bytes (%s), count %zu, buffers %s the guards",
           TYPES[t].name, flags ? " (integral floats)" : "", len, what, count,
           at_end ? "ending at" : "starting after");
  uint8_t *in = place(&IN, len, at_end);
  memcpy(in, src, len);
  uint8_t *out = place(&OUT, count * size, at_end);
  FM_TYPED_KERNELS[t].unpack(in, len, out, count, flags, &got);
  calls++;
  if (!same_result(&got, &want)) fail("result differs from the heap run");
  size_t done = got.code == FM_OK ? count : 0;
  if (memcmp(out, heap_out, done * size) != 0) fail("values differ from the heap run");
  if (!canary_intact(&OUT, out, count * size)) fail("wrote outside its output");
  if (!canary_intact(&IN, in, len) || memcmp(in, src, len) != 0) fail("input changed");
}

/* Every field of the result written by a call that succeeds, whatever an
 * earlier call left there (c/fm_result.h): a decode of elements only after one
 * that failed (element 1 nil) gives what the same decode gives a fresh result. */
static void check_result_refilled(size_t t) {
  const uint8_t bad[] = {0x01, 0xc0, 0x02}, good[] = {0x01, 0x02, 0x03};
  fm_result fresh, reused;
  memset(&fresh, 0xa5, sizeof fresh);
  snprintf(current, sizeof current, "fm_unpack_%s of elements only, after a call that failed", TYPES[t].name);
  FM_TYPED_KERNELS[t].unpack(bad, sizeof bad, heap_out, 3, FM_ELEMENTS_ONLY, &reused);
  fm_code code = FM_TYPED_KERNELS[t].unpack(good, sizeof good, heap_out, 3, FM_ELEMENTS_ONLY, &reused);
  FM_TYPED_KERNELS[t].unpack(good, sizeof good, heap_out, 3, FM_ELEMENTS_ONLY, &fresh);
  calls += 3;
  if (code != FM_OK || reused.code != FM_OK || !same_result(&reused, &fresh)) fail("the result keeps fields of an earlier call");
}

static void check_all_unpack(size_t t, uint32_t flags, bool at_end) {
  uint8_t src[16 * MAX_N];
  for (int form = 0; form < FORM_COUNT; form++) {
    char what[64];
    /* n whole elements, for n = 0..300. */
    for (size_t n = 0; n <= MAX_N; n++) {
      size_t len = put_header(src, n);
      for (size_t i = 0; i < n; i++) len += put_form(src + len, t, form);
      snprintf(what, sizeof what, "%zu %s elements", n, FORM_NAMES[form]);
      check_unpack(t, flags, src, len, what, at_end);
    }
    /* Every length 0..300 of a stream whose header claims as many elements as
     * there are bytes after it: it runs out inside an element, wherever that
     * falls (a block of 16 may start with fewer than 16 elements' bytes left).
     * Lengths 1 and 2 cut an array16 header. */
    for (size_t len = 0; len <= MAX_N; len++) {
      size_t p;
      if (len == 0) {
        p = 0;
      } else if (len - 1 <= 15) {
        p = put_header(src, len - 1);
      } else { /* array16, also for counts a fixarray could hold */
        src[0] = 0xdc, src[1] = (uint8_t)((len - 3) >> 8), src[2] = (uint8_t)(len - 3), p = 3;
      }
      if (len == 1 || len == 2) src[0] = 0xdc, p = 1;
      while (p < len) p += put_form(src + p, t, form);
      snprintf(what, sizeof what, "every length: %s", FORM_NAMES[form]);
      check_unpack(t, flags, src, len, what, at_end);
    }
  }
}

/* ---- strings ---------------------------------------------------------------------- */

enum { S_BMP, S_IA5, S_VISIBLE, S_PRINTABLE, S_NUMERIC, S_COUNT };
static const struct {
  const char *name;
  fm_code (*decode)(const uint8_t *, size_t, uint16_t *, fm_result *);
  fm_code (*encode)(const uint16_t *, size_t, uint8_t *, fm_result *);
  fm_code (*check)(const uint8_t *, size_t, fm_result *);
  fm_code (*der_read)(const uint8_t *, size_t, uint16_t *, fm_result *);
  fm_code (*der_write)(const uint16_t *, size_t, uint8_t *, fm_result *);
  uint8_t tag;
  const char *valid; /* the one-byte kinds: chars of the set (valid text draws from them) */
  uint8_t bad;       /* ... and one char outside it */
} STRINGS[S_COUNT] = {
    {"bmp", fm_bmp_decode, fm_bmp_encode, NULL, fm_der_read_bmp, fm_der_write_bmp, FM_DER_BMP_STRING, NULL, 0},
    {"ia5", fm_ia5_decode, fm_ia5_encode, fm_ia5_check, fm_der_read_ia5, fm_der_write_ia5,
     FM_DER_IA5_STRING, NULL, 0x80},
    {"visible", fm_visible_decode, fm_visible_encode, fm_visible_check, fm_der_read_visible,
     fm_der_write_visible, FM_DER_VISIBLE_STRING, NULL, 0x7f},
    {"printable", fm_printable_decode, fm_printable_encode, fm_printable_check, fm_der_read_printable,
     fm_der_write_printable, FM_DER_PRINTABLE_STRING,
     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?", '!'},
    {"numeric", fm_numeric_decode, fm_numeric_encode, fm_numeric_check, fm_der_read_numeric,
     fm_der_write_numeric, FM_DER_NUMERIC_STRING, "0123456789 ", 'a'},
};

/* Contents: all valid, a bad char last, a bad char first, random. */
enum { TEXT_VALID, TEXT_BAD_LAST, TEXT_BAD_FIRST, TEXT_RANDOM, TEXT_COUNT };
static const char *TEXT_NAMES[] = {"valid", "bad last", "bad first", "random"};

static uint16_t text_unit(int s, int text, size_t i, size_t n) {
  bool bad = (text == TEXT_BAD_LAST && i == n - 1) || (text == TEXT_BAD_FIRST && i == 0);
  uint16_t u = (uint16_t)rnd();
  if (text == TEXT_RANDOM) return s == S_BMP ? u : (uint16_t)(u & 0xff);
  if (s == S_BMP) return bad ? (uint16_t)(0xd800 | (u & 0x7ff)) : (uint16_t)((u & 0xf800) == 0xd800 ? u & 0x7fff : u);
  if (bad) return STRINGS[s].bad;
  const char *set = STRINGS[s].valid;
  if (set) return (uint8_t)set[u % strlen(set)];
  return (uint16_t)(0x20 + u % 95); /* printable ASCII: in IA5 and in Visible */
}

/* A string decoder or checker on content of len bytes; in place for BMP when asked. */
static void check_string_decode(int s, int text, size_t len, bool check_only, bool in_place, bool at_end) {
  bool wide = s == S_BMP;
  size_t chars = wide ? len / 2 : len;
  uint8_t src[2 * MAX_N + 2];
  for (size_t i = 0; i < len; i++) {
    uint16_t u = text_unit(s, text, wide ? i / 2 : i, wide ? (len + 1) / 2 : len);
    src[i] = wide ? (uint8_t)(i % 2 ? u : u >> 8) : (uint8_t)u;
  }
  fm_result want, got;
  memcpy(heap_copy, src, len);
  if (check_only) STRINGS[s].check(src, len, &want);
  else STRINGS[s].decode(heap_copy, len, in_place ? (uint16_t *)(void *)heap_copy : (uint16_t *)(void *)heap_out, &want);
  const uint8_t *want_units = in_place ? heap_copy : heap_out;
  snprintf(current, sizeof current, "fm_%s_%s%s of %zu bytes (%s), buffers %s the guards", STRINGS[s].name,
           check_only ? "check" : "decode", in_place ? " in place" : "", len, TEXT_NAMES[text],
           at_end ? "ending at" : "starting after");
  uint8_t *in = place(&IN, len, at_end);
  memcpy(in, src, len);
  uint8_t *out = in_place ? in : check_only ? NULL : place(&OUT, 2 * chars, at_end);
  if (check_only) STRINGS[s].check(in, len, &got);
  else STRINGS[s].decode(in, len, (uint16_t *)(void *)out, &got);
  calls++;
  if (!same_result(&got, &want)) fail("result differs from the heap run");
  if (got.code == FM_OK && out && memcmp(out, want_units, 2 * chars) != 0) fail("chars differ from the heap run");
  if (out && !in_place && !canary_intact(&OUT, out, 2 * chars)) fail("wrote outside its output");
  if (!canary_intact(&IN, in, len) || (!in_place && memcmp(in, src, len) != 0)) fail("input changed");
}

/* A string encoder on n units; in place for BMP when asked. */
static void check_string_encode(int s, int text, size_t n, bool in_place, bool at_end) {
  bool wide = s == S_BMP;
  size_t bytes = wide ? 2 * n : n;
  _Alignas(16) uint16_t src[MAX_N + 1];
  for (size_t i = 0; i < n; i++) src[i] = text_unit(s, text, i, n);
  fm_result want, got;
  memcpy(heap_copy, src, 2 * n);
  uint8_t *want_out = in_place ? heap_copy : heap_out;
  STRINGS[s].encode((const uint16_t *)(void *)heap_copy, n, want_out, &want);
  snprintf(current, sizeof current, "fm_%s_encode%s of %zu units (%s), buffers %s the guards", STRINGS[s].name,
           in_place ? " in place" : "", n, TEXT_NAMES[text], at_end ? "ending at" : "starting after");
  uint8_t *in = place(&IN, 2 * n, at_end);
  memcpy(in, src, 2 * n);
  uint8_t *out = in_place ? in : place(&OUT, bytes, at_end);
  STRINGS[s].encode((const uint16_t *)(void *)in, n, out, &got);
  calls++;
  if (!same_result(&got, &want)) fail("result differs from the heap run");
  if (got.code == FM_OK && memcmp(out, want_out, bytes) != 0) fail("bytes differ from the heap run");
  if (!in_place && !canary_intact(&OUT, out, bytes)) fail("wrote outside its output");
  if (!canary_intact(&IN, in, 2 * n) || (!in_place && memcmp(in, src, 2 * n) != 0)) fail("input changed");
}

static size_t der_header(uint8_t *p, uint8_t tag, size_t length) {
  p[0] = tag;
  if (length < 0x80) return p[1] = (uint8_t)length, 2;
  if (length <= 0xff) return p[1] = 0x81, p[2] = (uint8_t)length, 3;
  return p[1] = 0x82, p[2] = (uint8_t)(length >> 8), p[3] = (uint8_t)length, 4;
}

/* A DER reader on a string of `content` bytes (a header claiming one more when `cut`). */
static void check_der_read(int s, int text, size_t content, bool cut, bool at_end) {
  bool wide = s == S_BMP;
  uint8_t src[FM_DER_HEADER_MAX + 2 * MAX_N + 2];
  size_t len = der_header(src, STRINGS[s].tag, content + cut);
  for (size_t i = 0; i < content; i++) {
    uint16_t u = text_unit(s, text, wide ? i / 2 : i, wide ? (content + 1) / 2 : content);
    src[len + i] = wide ? (uint8_t)(i % 2 ? u : u >> 8) : (uint8_t)u;
  }
  len += content;
  size_t chars = wide ? content / 2 : content;
  fm_result want, got;
  STRINGS[s].der_read(src, len, (uint16_t *)(void *)heap_out, &want);
  snprintf(current, sizeof current, "fm_der_read_%s of %zu content bytes (%s%s), buffers %s the guards",
           STRINGS[s].name, content, TEXT_NAMES[text], cut ? ", one byte short" : "",
           at_end ? "ending at" : "starting after");
  uint8_t *in = place(&IN, len, at_end);
  memcpy(in, src, len);
  uint8_t *out = place(&OUT, 2 * chars, at_end);
  STRINGS[s].der_read(in, len, (uint16_t *)(void *)out, &got);
  calls++;
  if (!same_result(&got, &want)) fail("result differs from the heap run");
  if (got.code == FM_OK && memcmp(out, heap_out, 2 * chars) != 0) fail("chars differ from the heap run");
  if (!canary_intact(&OUT, out, 2 * chars)) fail("wrote outside its output");
  if (!canary_intact(&IN, in, len) || memcmp(in, src, len) != 0) fail("input changed");
}

/* A DER writer on n units, into exactly its header and content. */
static void check_der_write(int s, int text, size_t n, bool at_end) {
  bool wide = s == S_BMP;
  _Alignas(16) uint16_t src[MAX_N + 1];
  for (size_t i = 0; i < n; i++) src[i] = text_unit(s, text, i, n);
  uint8_t head[FM_DER_HEADER_MAX];
  size_t bytes = der_header(head, STRINGS[s].tag, wide ? 2 * n : n) + (wide ? 2 * n : n);
  fm_result want, got;
  STRINGS[s].der_write(src, n, heap_out, &want);
  snprintf(current, sizeof current, "fm_der_write_%s of %zu units (%s), buffers %s the guards",
           STRINGS[s].name, n, TEXT_NAMES[text], at_end ? "ending at" : "starting after");
  uint8_t *in = place(&IN, 2 * n, at_end);
  memcpy(in, src, 2 * n);
  uint8_t *out = place(&OUT, bytes, at_end);
  STRINGS[s].der_write((const uint16_t *)(void *)in, n, out, &got);
  calls++;
  if (!same_result(&got, &want)) fail("result differs from the heap run");
  if (got.code == FM_OK && (got.end != bytes || memcmp(out, heap_out, bytes) != 0)) fail("bytes differ");
  if (!canary_intact(&OUT, out, bytes)) fail("wrote outside its output");
  if (!canary_intact(&IN, in, 2 * n) || memcmp(in, src, 2 * n) != 0) fail("input changed");
}

/* fm_bmp_narrow on n chars of content (valid: every char at most max; bad:
 * a char above it), into an output of exactly n bytes: it may write only the
 * chars it did, out[0, count). */
static uint16_t narrow_unit(uint32_t max, int text, size_t i, size_t n) {
  static const uint16_t above[] = {0x0080, 0x0100, 0x01ff, 0x4e2d, 0xd800, 0xffff};
  uint16_t u = (uint16_t)rnd();
  bool bad = (text == TEXT_BAD_LAST && i == n - 1) || (text == TEXT_BAD_FIRST && i == 0);
  if (text == TEXT_RANDOM) return u;
  if (bad) return above[(max == 0xff) + u % (sizeof above / sizeof above[0] - 1)];
  return (uint16_t)(u % (max + 1));
}

static void check_bmp_narrow(uint32_t max, int text, size_t n, bool at_end) {
  uint8_t src[2 * MAX_N];
  for (size_t i = 0; i < n; i++) {
    uint16_t u = narrow_unit(max, text, i, n);
    src[2 * i] = (uint8_t)(u >> 8), src[2 * i + 1] = (uint8_t)u;
  }
  size_t want = fm_bmp_narrow(src, n, heap_out, max);
  snprintf(current, sizeof current, "fm_bmp_narrow (max 0x%02x) of %zu chars (%s), buffers %s the guards",
           (unsigned)max, n, TEXT_NAMES[text], at_end ? "ending at" : "starting after");
  uint8_t *in = place(&IN, 2 * n, at_end);
  memcpy(in, src, 2 * n);
  uint8_t *out = place(&OUT, n, at_end);
  size_t got = fm_bmp_narrow(in, n, out, max);
  calls++;
  if (got != want) fail("count differs from the heap run");
  if (got <= n && memcmp(out, heap_out, got) != 0) fail("bytes differ from the heap run");
  if (got > n || !canary_intact(&OUT, out, got)) fail("wrote past the chars it did");
  if (!canary_intact(&IN, in, 2 * n) || memcmp(in, src, 2 * n) != 0) fail("input changed");
}

int main(void) {
  page = (size_t)sysconf(_SC_PAGESIZE);
  memset(canary_bytes, CANARY, sizeof canary_bytes);
  IN = map_region(16 * MAX_N + 64);
  OUT = map_region(16 * MAX_N + 64);
  struct sigaction sa = {0};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);

  for (int at_end = 1; at_end >= 0; at_end--) {
    for (size_t t = 0; t < FM_TYPE_COUNT; t++) {
      for (int fill = 0; fill < FILL_COUNT; fill++) {
        for (size_t n = 0; n <= MAX_N; n++) check_pack(t, fill, n, at_end);
      }
      check_all_unpack(t, 0, at_end);
      if (IS_FLOAT[t] || IS_INTEGER[t]) check_result_refilled(t);
      if (IS_INTEGER[t]) check_all_unpack(t, FM_INTEGRAL_FLOATS, at_end);
    }
    for (int s = 0; s < S_COUNT; s++) {
      for (int text = 0; text < TEXT_COUNT; text++) {
        for (size_t n = 0; n <= MAX_N; n++) {
          check_string_decode(s, text, n, false, false, at_end);
          if (s == S_BMP) check_string_decode(s, text, n, false, true, at_end);
          else check_string_decode(s, text, n, true, false, at_end);
          check_string_encode(s, text, n, false, at_end);
          if (s == S_BMP) check_string_encode(s, text, n, true, at_end);
          check_der_read(s, text, n, false, at_end);
          check_der_read(s, text, n, true, at_end);
          check_der_write(s, text, n, at_end);
        }
      }
    }
    for (int text = 0; text < TEXT_COUNT; text++) {
      for (size_t n = 0; n <= MAX_N; n++) {
        check_bmp_narrow(0x7f, text, n, at_end);
        check_bmp_narrow(0xff, text, n, at_end);
      }
    }
  }
  printf("fm-guard: %s build, %lu calls at every length 0..%d, %s\n", fm_simd_enabled() ? "SIMD" : "scalar",
         calls, MAX_N, failures ? "FAILED" : "no guard page touched, nothing written outside its bounds");
  return failures ? 1 : 0;
}
