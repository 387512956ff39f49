#!/usr/bin/env python3
"""seeds.py - writes the small seed corpora of the fuzz targets into
c/fuzz/corpus/<target>/ (run once; the files are committed). Each seed is a
valid input whose shape reaches a kernel path: uniform SIMD blocks of every
element form, runs of fixints, mixed forms, block boundaries (15/16/17/33
elements or 64-unit BMP blocks), and the DER length forms. The fuzzer mutates
them into everything else."""
import hashlib, os, random, re, struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')


def element_types(family):
    """[(name, C type)] of c/fastmp.h's FM_<family>_TYPES, in order: its one list of element types."""
    with open(os.path.join(os.path.dirname(ROOT), '..', 'fastmp.h')) as f:
        text = f.read()
    body = re.search(r'#define FM_%s_TYPES\(X\)((?:.*\\\n)*.*)' % family, text).group(1)
    return re.findall(r'\bX\((\w+), (\w+), \d+\)', body)


C_TYPES = dict(element_types('FLOAT') + element_types('INT') + element_types('BOOL'))
TYPES = list(C_TYPES)  # FM_ELEMENT_TYPES: floats, ints, bool
INT_TYPES = [name for name, _ in element_types('INT')]
rnd = random.Random(6)


def header(n):
    if n <= 15:
        return bytes([0x90 | n])
    if n <= 0xffff:
        return b'\xdc' + struct.pack('>H', n)
    return b'\xdd' + struct.pack('>I', n)


FORMS = {  # tag, struct format of the payload, value range
    'posfix': (None, None, 0, 127), 'negfix': (None, None, -32, -1),
    'u8': (0xcc, '>B', 0, 255), 'u16': (0xcd, '>H', 0, 65535), 'u32': (0xce, '>I', 0, 2**32 - 1),
    'u64': (0xcf, '>Q', 0, 2**64 - 1), 'i8': (0xd0, '>b', -128, 127), 'i16': (0xd1, '>h', -32768, 32767),
    'i32': (0xd2, '>i', -2**31, 2**31 - 1), 'i64': (0xd3, '>q', -2**63, 2**63 - 1),
}


def element(form):
    if form == 'f32':
        return b'\xca' + struct.pack('>f', rnd.uniform(-1e6, 1e6))
    if form == 'f64':
        return b'\xcb' + struct.pack('>d', rnd.uniform(-1e6, 1e6))
    if form == 'bool':
        return bytes([0xc2 + rnd.randrange(2)])
    tag, fmt, lo, hi = FORMS[form]
    # Small values mostly, so that more of them fit the narrow targets.
    v = rnd.randint(lo, hi) if rnd.random() < 0.3 else rnd.randint(max(lo, -100), min(hi, 100))
    if tag is None:
        return struct.pack('>b', v)
    return bytes([tag]) + struct.pack(fmt, v)


def array(forms):
    return header(len(forms)) + b''.join(element(f) for f in forms)


NUMERIC = ['posfix', 'negfix', 'u8', 'u16', 'u32', 'u64', 'i8', 'i16', 'i32', 'i64', 'f32', 'f64']


def unpack_seeds(t):
    own = t  # an element in the type's own form (as element() names the forms)
    seeds = [array([]), array([own] * 3), array([own] * 16), array([own] * 17), array([own] * 33)]
    if t == 'bool':
        return seeds + [array(['bool'] * 70)]
    seeds += [array(['posfix'] * 16), array(['posfix'] * 40), array(['negfix'] * 33),
              array(['f32'] * 16), array(['f64'] * 17),
              array([rnd.choice(NUMERIC) for _ in range(50)]),
              array(['posfix'] * 16 + [own] * 16 + ['f64'] * 16 + ['negfix'] * 3)]
    return seeds


def bmp_units(n, bad_at=None):
    units = [rnd.choice([0x41, 0xe9, 0x3b1, 0x4e2d, 0xfeff, 0xffff, 0x0]) for _ in range(n)]
    if bad_at is not None:
        units[bad_at] = 0xd83d
    return units


def ascii_bytes(n, lo, hi):
    return bytes(rnd.randint(lo, hi) for _ in range(n))


# X.680 41.4: the chars of the kinds with holes in their sets.
SETS = {'printable': b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 '()+,-./:=?",
        'numeric': b'0123456789 '}
RANGES = {'ia5': (0, 0x7f), 'visible': (0x20, 0x7e)}


def kind_bytes(kind, n):
    """n chars of a one-byte kind."""
    if kind in SETS:
        return bytes(rnd.choice(SETS[kind]) for _ in range(n))
    return ascii_bytes(n, *RANGES[kind])


def der(tag, content):
    n = len(content)
    if n < 0x80:
        return bytes([tag, n]) + content
    octets = n.to_bytes((n.bit_length() + 7) // 8, 'big')
    return bytes([tag, 0x80 | len(octets)]) + octets + content


def string_seeds(kind):
    if kind == 'bmp':
        return [b''.join(struct.pack('>H', u) for u in bmp_units(n, bad)) for n, bad in
                [(0, None), (3, None), (8, None), (64, None), (70, None), (70, 66), (130, 64)]]
    seeds = [b'', kind_bytes(kind, 7), kind_bytes(kind, 16), kind_bytes(kind, 64), kind_bytes(kind, 100),
             kind_bytes(kind, 80) + b'\x80' + kind_bytes(kind, 20)]
    if kind in SETS:  # a hole of the set (inside its range) within a SIMD block
        seeds.append(kind_bytes(kind, 40) + b'*' + kind_bytes(kind, 30))
    return seeds


TAGS = {'bmp': 0x1e, 'ia5': 0x16, 'visible': 0x1a, 'printable': 0x13, 'numeric': 0x12}
KINDS = list(TAGS)  # in c/fuzz/fm_fuzz.h's order (S_BMP, S_IA5, ...)


def der_seeds(kind):
    contents = string_seeds(kind)
    if kind == 'bmp':
        contents.append(b''.join(struct.pack('>H', u) for u in bmp_units(200)))
    else:
        contents.append(contents[-2] * 3)
    return [der(TAGS[kind], c) for c in contents]


def struct_code(c_type):
    """The struct module's code of a C element type: float, double, (u)int<N>_t."""
    if c_type in ('float', 'double'):
        return c_type[0]
    unsigned, bits = re.fullmatch(r'(u?)int(\d+)_t', c_type).groups()
    code = {8: 'b', 16: 'h', 32: 'i', 64: 'q'}[int(bits)]
    return code.upper() if unsigned else code


def typed_bytes(t, n):
    fmt = '<' + struct_code(C_TYPES[t])
    out = b''
    for k in range(n):
        if t in ('f32', 'f64'):
            out += struct.pack(fmt, rnd.uniform(-1e9, 1e9))
        else:
            size = struct.calcsize(fmt)
            signed = fmt[1].islower()
            bits = 8 * size
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            # fixints, then each size class, so that SIMD vectors see every mix
            pick = k % 4
            v = rnd.randint(max(lo, -32), min(hi, 127)) if pick < 2 else rnd.randint(lo, hi)
            out += struct.pack(fmt, v)
    return out


def write(target, seeds):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    for s in seeds:
        with open(os.path.join(d, hashlib.sha1(s).hexdigest()), 'wb') as f:
            f.write(s)


def main():
    for t in TYPES:
        write('unpack_' + t, unpack_seeds(t))
    for k in TAGS:
        write('decode_' + k, string_seeds(k))
        write('der_' + k, der_seeds(k))
    write('roundtrip', [bytes([i]) + typed_bytes(t, n) for i, t in enumerate(TYPES) for n in (3, 17, 40)])
    # diff: the selector of c/fuzz/fuzz_diff.c, laid out as its enum: unpack
    # (per type), unpack with integral floats (per int type), pack (per type),
    # string decode (per kind), BMP decode in place, check (per kind but BMP),
    # encode (per kind), BMP encode in place, DER read (per kind), DER write.
    unpack, integral = 0, len(TYPES)
    pack = integral + len(INT_TYPES)
    decode = pack + len(TYPES)
    decode_in_place = decode + len(KINDS)
    check = decode_in_place + 1
    encode = check + len(KINDS) - 1
    encode_in_place = encode + len(KINDS)
    der_read = encode_in_place + 1
    der_write = der_read + len(KINDS)
    diff = []
    for i, t in enumerate(TYPES):
        diff += [bytes([unpack + i]) + unpack_seeds(t)[k] for k in (3, 4, -1)]
        diff += [bytes([pack + i]) + typed_bytes(t, 40)]
    for i, t in enumerate(INT_TYPES):
        diff += [bytes([integral + i]) + array(['f64'] * 17)]
    for i, k in enumerate(KINDS):
        chars = lambda n: ascii_bytes(n, 0x20, 0x7e) if k == 'bmp' else kind_bytes(k, n)
        diff += [bytes([decode + i]) + s for s in string_seeds(k)[-2:]]
        diff += [bytes([der_read + i]) + der_seeds(k)[-1]]
        diff += [bytes([encode + i]) + b''.join(struct.pack('<H', b) for b in chars(70))]
        diff += [bytes([der_write + i]) + b''.join(struct.pack('<H', b) for b in chars(130))]
        if k != 'bmp':
            diff += [bytes([check + i - 1]) + chars(90)]
    diff += [bytes([decode_in_place]) + string_seeds('bmp')[-1],
             bytes([encode_in_place]) + b''.join(struct.pack('<H', u) for u in bmp_units(70, 65))]
    write('diff', diff)
    # fm_bmp_narrow (decode_bmp narrows its content too; in diff, the op after
    # DER write: a byte choosing max 2^k - 1 for k = byte % 9, then content):
    # chars all at most 0x7F or 0xFF in whole SIMD blocks, and a wider char
    # after them. Drawn after every seed above, which so stay as they were.
    bmp_narrow = der_write + len(KINDS)
    content = lambda units: b''.join(struct.pack('>H', u) for u in units)
    ascii = lambda n: [rnd.randint(0, 0x7f) for _ in range(n)]
    latin1 = lambda n: [rnd.randint(0, 0xff) for _ in range(n)]
    narrow = [content(ascii(64)), content(ascii(70)), content(ascii(130) + [0xe9] + ascii(20)),
              content(latin1(130)), content(latin1(100) + [0x100] + latin1(30))]
    write('decode_bmp', narrow)
    write('diff', [bytes([bmp_narrow, k]) + c for k in (7, 8) for c in narrow[1:4]])


if __name__ == '__main__':
    main()
