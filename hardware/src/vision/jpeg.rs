//! A baseline JPEG decoder that gives the luma (Y) plane only, and fast: what a webcam's MJPEG
//! stream is made of, and all the camera path needs.
//!
//! A general decoder ([`zune_jpeg`], what [`super::luma`] used before) spends most of a 1080p
//! frame on work the scanner never sees: it keeps every coefficient it decodes, including the
//! chroma's, and runs one general routine per coefficient. Here:
//!
//! - **Huffman decoding** looks up the next 10 bits in one table whose entry, for the short codes
//!   that make up most of a picture, holds everything at once: how many bits the code *and* its
//!   value take, the run of zeros before it and the value itself. A 64-bit bit buffer is filled
//!   8 bytes at a time where no `0xFF` byte (a stuffed byte or a marker) is among them.
//! - **The chroma blocks** are walked with the same tables, only to find where the next luma
//!   block starts (a baseline picture interleaves them): nothing is stored, dequantised or
//!   transformed.
//! - **The inverse DCT** is libjpeg's accurate integer one (`jidctint`), written over rows of
//!   eight 32-bit lanes so that the compiler turns it into vector code (AVX2 where the processor
//!   has it, chosen at run time; NEON on a Raspberry Pi). A block with only a DC coefficient is a
//!   fill; one whose coefficients all lie in the first four rows and columns (most blocks of a
//!   card table at quality 85) takes the transform with half of its inputs known to be zero.
//!
//! What it takes: baseline and extended sequential Huffman pictures (`SOF0`, `SOF1`) of 8-bit
//! samples, grey or YCbCr, any sampling factors where the luma has the largest, interleaved or
//! not, with restart intervals, and without Huffman tables (an MJPEG frame: the standard tables
//! of the JPEG standard's Annex K are used). Anything else — progressive, arithmetic-coded,
//! lossless or 12-bit pictures, RGB or CMYK ones, a luma plane sampled below the chroma — is
//! [`Refused::Unsupported`], and a damaged picture (a bad table, a code that is none, data that
//! ends early, a missing restart marker) is [`Refused::Damaged`]. [`super::luma::from_jpeg`]
//! gives both to `zune-jpeg`, which decodes what it can and says what is wrong.
//!
//! Every picture costs at most its pixels' worth of work: each block reads at most 64
//! coefficients, the picture is at most `max_side` pixels a side, and data that ends early is
//! noticed at the end of each row of blocks. No input panics (the transform's arithmetic wraps
//! on hostile coefficients instead of overflowing).

use std::array::from_fn;
use std::ops::{Add, Mul, Shl, Shr, Sub};

/// Why a picture was not decoded here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A valid JPEG of a kind this decoder does not take (progressive, 12-bit, RGB…).
    Unsupported(&'static str),
    /// Not a JPEG, or a damaged one.
    Damaged(&'static str),
}

/// A picture's luma plane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Luma {
    /// Pixels a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// `width` × `height` grey levels, row by row.
    pub pixels: Vec<u8>,
}

/// The zigzag order: the `k`-th coefficient of a block's data is at natural index
/// `row * 8 + column` `ZIGZAG[k]`.
const ZIGZAG: [u8; 64] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
    13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
    52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/// Where the `k`-th coefficient is stored: transposed (`column * 8 + row`), so that the first
/// pass of the transform runs along the rows of pixels with the eight rows as lanes.
const STORED: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        let n = ZIGZAG[k];
        t[k] = (n % 8) * 8 + n / 8;
        k += 1;
    }
    t
};

/// Bits looked up at once in a Huffman table.
const FAST: u32 = 10;

/// The standard tables (the JPEG standard's Annex K.3), for MJPEG frames that carry none:
/// code counts per length 1–16, then the symbols.
const STD_DC_LUMA: ([u8; 16], &[u8]) = (
    [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
    &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
);
const STD_DC_CHROMA: ([u8; 16], &[u8]) = (
    [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
    &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
);
const STD_AC_LUMA: ([u8; 16], &[u8]) = (
    [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
    &[
        0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61,
        0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52,
        0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25,
        0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45,
        0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64,
        0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
        0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
        0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
        0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3,
        0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8,
        0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
    ],
);
const STD_AC_CHROMA: ([u8; 16], &[u8]) = (
    [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
    &[
        0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61,
        0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33,
        0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18,
        0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44,
        0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63,
        0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a,
        0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,
        0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
        0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca,
        0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7,
        0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
    ],
);

/// The value of `s` extra bits `v` (the JPEG standard's EXTEND).
#[inline(always)]
fn extend(v: i32, s: u32) -> i32 {
    if s == 0 {
        0
    } else if v < (1 << (s - 1)) {
        v - (1 << s) + 1
    } else {
        v
    }
}

/// A Huffman table, for decoding.
///
/// `fast[next FAST bits]`: for a code of at most `FAST` bits whose value bits fit in the same
/// `FAST` bits, `used | run << 8 | value << 16` (`used` > 0: the bits the code and its value
/// take; `run`: the zeros before the value, 64 for the end of the block); for another code of at
/// most `FAST` bits, `length << 8 | symbol << 16` (`used` = 0); for a longer code, 0.
struct Huffman {
    fast: Box<[u32; 1 << FAST]>,
    /// The largest code of each length (−1: none), `[17]` a sentinel.
    max_code: [i32; 18],
    /// Code + `offset[length]` = the symbol's index in `symbols`.
    offset: [i32; 17],
    symbols: [u8; 256],
}

impl Huffman {
    /// Builds a table from its code counts per length and symbols; `ac` tables' symbols are a
    /// run and a size, DC tables' a size.
    fn new(counts: &[u8; 16], symbols: &[u8], ac: bool) -> Result<Self, Refused> {
        let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
        if total > 256 || total != symbols.len() {
            return Err(Refused::Damaged("a Huffman table with too many codes"));
        }
        let mut table = Self {
            fast: Box::new([0; 1 << FAST]),
            max_code: [-1; 18],
            offset: [0; 17],
            symbols: [0; 256],
        };
        table.symbols[..total].copy_from_slice(symbols);
        table.max_code[17] = i32::MAX;
        let mut code: u32 = 0;
        let mut k = 0usize;
        for length in 1..=16u32 {
            let count = usize::from(counts[length as usize - 1]);
            table.offset[length as usize] = k as i32 - code as i32;
            for _ in 0..count {
                if length <= FAST {
                    table.fill_fast(code, length, symbols[k], ac);
                }
                code += 1;
                k += 1;
            }
            if code > (1 << length) {
                return Err(Refused::Damaged("a Huffman table whose codes overflow"));
            }
            table.max_code[length as usize] = if count == 0 { -1 } else { code as i32 - 1 };
            code <<= 1;
        }
        Ok(table)
    }

    fn fill_fast(&mut self, code: u32, length: u32, symbol: u8, ac: bool) {
        let (run, size) = if ac {
            (u32::from(symbol >> 4), u32::from(symbol & 15))
        } else {
            (0, u32::from(symbol))
        };
        let spare = FAST - length;
        for low in 0..(1u32 << spare) {
            let index = ((code << spare) | low) as usize;
            let entry = if ac && size == 0 {
                // ZRL: sixteen zeros (a zero written after fifteen); anything else: the end.
                let run = if run == 15 { 15 } else { 64 };
                length | run << 8
            } else if size <= 15 && length + size <= FAST {
                let bits = (low >> (spare - size)) & ((1 << size) - 1);
                let value = extend(bits as i32, size);
                (length + size) | run << 8 | (value as u32) << 16
            } else {
                length << 8 | u32::from(symbol) << 16
            };
            if let Some(slot) = self.fast.get_mut(index) {
                *slot = entry;
            }
        }
    }

    /// Decodes a code longer than `FAST` bits: its symbol and length.
    #[inline(never)]
    fn slow(&self, buf: u64) -> Result<(u32, u32), Refused> {
        for length in FAST + 1..=16 {
            let code = (buf >> (64 - length)) as i32;
            if code <= self.max_code[length as usize] {
                let index = code + self.offset[length as usize];
                let symbol = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.symbols.get(i))
                    .ok_or(Refused::Damaged("a Huffman code outside its table"))?;
                return Ok((length, u32::from(*symbol)));
            }
        }
        Err(Refused::Damaged("a Huffman code that is in no table"))
    }
}

/// The entropy-coded data, as bits. It is copied, not borrowed, by the functions that are not
/// inlined, so that the compiler keeps the bit buffer in registers in the decoding loop.
#[derive(Clone, Copy)]
struct Bits<'a> {
    data: &'a [u8],
    /// The next byte to load.
    pos: usize,
    /// The bits loaded, from the top; the rest are zeros.
    buf: u64,
    /// How many bits `buf` holds. (`n` and `pad` are 64-bit so that the compiler keeps each in a
    /// register of its own rather than both in one.)
    n: u64,
    /// How many of them are zeros put in after the data's end (a marker or the end of the file).
    pad: u64,
}

impl<'a> Bits<'a> {
    fn new(data: &'a [u8], pos: usize) -> Self {
        Self {
            data,
            pos,
            buf: 0,
            n: 0,
            pad: 0,
        }
    }

    /// Loads bits until at least 57 are held (zeros past the data's end).
    #[inline(always)]
    fn refill(&mut self) {
        if let Some(word) = self.data.get(self.pos..self.pos + 8) {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            let w = u64::from_be_bytes(eight);
            // No 0xFF byte among the eight (a stuffed 0xFF 0x00 or a marker): take them whole.
            let inv = !w;
            let has_ff = inv.wrapping_sub(0x0101_0101_0101_0101) & !inv & 0x8080_8080_8080_8080;
            if has_ff == 0 {
                let take = (63 - self.n) >> 3;
                self.buf |= w >> self.n;
                self.n += take * 8;
                self.pos += take as usize;
                self.buf &= !(u64::MAX >> self.n);
                return;
            }
        }
        *self = self.refill_slow();
    }

    #[inline(never)]
    fn refill_slow(mut self) -> Self {
        while self.n <= 56 {
            let byte = match self.data.get(self.pos) {
                Some(0xFF) => {
                    if self.data.get(self.pos + 1) == Some(&0) {
                        self.pos += 2;
                        0xFF
                    } else {
                        // A marker: the data ends here.
                        self.pad += 8;
                        0
                    }
                }
                Some(&b) => {
                    self.pos += 1;
                    b
                }
                None => {
                    self.pad += 8;
                    0
                }
            };
            self.buf |= u64::from(byte) << (56 - self.n);
            self.n += 8;
        }
        self
    }

    #[inline(always)]
    fn peek(&self) -> usize {
        (self.buf >> (64 - FAST)) as usize
    }

    /// Drops `k` bits (at most the `n` held).
    #[inline(always)]
    fn consume(&mut self, k: u32) {
        self.buf <<= k;
        self.n -= u64::from(k);
    }

    /// Reads `s` (≤ 15, with at least `s` bits held) value bits.
    #[inline(always)]
    fn value(&mut self, s: u32) -> i32 {
        if s == 0 {
            return 0;
        }
        let v = (self.buf >> (64 - s)) as i32;
        self.consume(s);
        extend(v, s)
    }

    /// Whether bits past the data's end were read (the data ended early).
    fn overrun(&self) -> bool {
        self.pad > self.n
    }

    /// At a restart marker: drops what is left of the bits, finds the marker `RST(number)` and
    /// goes on after it.
    #[inline(never)]
    fn restart(mut self, number: u8) -> Result<Self, Refused> {
        if self.overrun() {
            return Err(Refused::Damaged("the data ends before a restart marker"));
        }
        self.buf = 0;
        self.n = 0;
        self.pad = 0;
        let at = next_marker_in_data(self.data, self.pos)
            .ok_or(Refused::Damaged("a restart marker is missing"))?;
        if self.data.get(at + 1) != Some(&(0xD0 + (number & 7))) {
            return Err(Refused::Damaged("a restart marker is missing"));
        }
        self.pos = at + 2;
        Ok(self)
    }
}

/// The first marker at or after `from` in entropy-coded data (skipping stuffed bytes and
/// restart markers only when asked by the caller): the index of its `0xFF`.
fn next_marker_in_data(data: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        i += data.get(i..)?.iter().position(|&b| b == 0xFF)?;
        match data.get(i + 1)? {
            0x00 | 0xFF => i += 1,
            _ => return Some(i),
        }
    }
}

/// Decodes one block: `WRITE` stores its dequantised coefficients in `c` (which must be zeros)
/// and returns the index of the last one stored in zigzag order; otherwise it is only walked.
#[inline(always)]
fn block<const WRITE: bool>(
    bits: &mut Bits,
    dc: &Huffman,
    ac: &Huffman,
    pred: &mut i32,
    quant: &[i32; 64],
    c: &mut [i32; 64],
) -> Result<usize, Refused> {
    if bits.n < 32 {
        bits.refill();
    }
    let e = dc.fast[bits.peek()];
    let diff = if e & 0xFF != 0 {
        bits.consume(e & 0xFF);
        (e as i32) >> 16
    } else {
        let (length, size) = if e != 0 {
            ((e >> 8) & 0xFF, (e >> 16) & 0xFF)
        } else {
            dc.slow(bits.buf)?
        };
        if size > 15 {
            return Err(Refused::Damaged("a DC difference of more than 15 bits"));
        }
        bits.consume(length);
        bits.value(size)
    };
    *pred = pred.wrapping_add(diff);
    if WRITE {
        c[0] = pred.wrapping_mul(quant[0]);
    }
    let mut last = 0;
    let mut k = 1usize;
    let fast: &[u32; 1 << FAST] = &ac.fast;
    while k < 64 {
        if bits.n < 32 {
            bits.refill();
        }
        let e = fast[bits.peek()];
        let used = e & 0xFF;
        if used != 0 {
            bits.consume(used);
            k += ((e >> 8) & 0xFF) as usize;
            if k > 63 {
                break;
            }
            if WRITE {
                c[usize::from(STORED[k]) & 63] = ((e as i32) >> 16).wrapping_mul(quant[k]);
                last = k;
            }
            k += 1;
        } else {
            let (length, symbol) = if e != 0 {
                ((e >> 8) & 0xFF, (e >> 16) & 0xFF)
            } else {
                ac.slow(bits.buf)?
            };
            bits.consume(length);
            let (run, size) = ((symbol >> 4) as usize, symbol & 15);
            if size == 0 {
                if run == 15 {
                    k += 16;
                    continue;
                }
                break;
            }
            k += run;
            if k > 63 {
                break;
            }
            let v = bits.value(size);
            if WRITE {
                c[usize::from(STORED[k]) & 63] = v.wrapping_mul(quant[k]);
                last = k;
            }
            k += 1;
        }
    }
    Ok(last)
}

/// Eight 32-bit lanes: a row of a block, for the transform. Its arithmetic wraps.
#[derive(Clone, Copy)]
struct V([i32; 8]);

const ZERO: V = V([0; 8]);

impl Add for V {
    type Output = V;
    #[inline(always)]
    fn add(self, o: V) -> V {
        V(from_fn(|i| self.0[i].wrapping_add(o.0[i])))
    }
}

impl Sub for V {
    type Output = V;
    #[inline(always)]
    fn sub(self, o: V) -> V {
        V(from_fn(|i| self.0[i].wrapping_sub(o.0[i])))
    }
}

impl Mul<i32> for V {
    type Output = V;
    #[inline(always)]
    fn mul(self, k: i32) -> V {
        V(from_fn(|i| self.0[i].wrapping_mul(k)))
    }
}

impl Shl<u32> for V {
    type Output = V;
    #[inline(always)]
    fn shl(self, k: u32) -> V {
        V(from_fn(|i| self.0[i].wrapping_shl(k)))
    }
}

impl Shr<u32> for V {
    type Output = V;
    #[inline(always)]
    fn shr(self, k: u32) -> V {
        V(from_fn(|i| self.0[i].wrapping_shr(k)))
    }
}

/// One pass of libjpeg's accurate integer inverse DCT (`jidctint.c`, 13-bit constants) on eight
/// lanes at once, written once for every backend (the portable lanes, AVX2, NEON): `$i` the eight
/// inputs by frequency, `$bias` (a vector) added before `$descale`, and the backend's `$add`,
/// `$sub`, `$mul` (by a constant) and `$shl13`. Gives the eight outputs.
macro_rules! jidctint_pass {
    ($i:expr, $bias:expr, $add:expr, $sub:expr, $mul:expr, $shl13:expr, $descale:expr) => {{
        let i = $i;
        let bias = $bias;
        let (add, sub, mul, shl13, descale) = ($add, $sub, $mul, $shl13, $descale);
        // Even part.
        let z1 = mul(add(i[2], i[6]), 4433);
        let tmp2 = add(z1, mul(i[6], -15137));
        let tmp3 = add(z1, mul(i[2], 6270));
        let tmp0 = add(shl13(add(i[0], i[4])), bias);
        let tmp1 = add(shl13(sub(i[0], i[4])), bias);
        let (t10, t13) = (add(tmp0, tmp3), sub(tmp0, tmp3));
        let (t11, t12) = (add(tmp1, tmp2), sub(tmp1, tmp2));
        // Odd part.
        let (o0, o1, o2, o3) = (i[7], i[5], i[3], i[1]);
        let z5 = mul(add(add(o0, o2), add(o1, o3)), 9633);
        let z1 = mul(add(o0, o3), -7373);
        let z2 = mul(add(o1, o2), -20995);
        let z3 = add(mul(add(o0, o2), -16069), z5);
        let z4 = add(mul(add(o1, o3), -3196), z5);
        let a0 = add(mul(o0, 2446), add(z1, z3));
        let a1 = add(mul(o1, 16819), add(z2, z4));
        let a2 = add(mul(o2, 25172), add(z2, z3));
        let a3 = add(mul(o3, 12299), add(z1, z4));
        [
            descale(add(t10, a3)),
            descale(add(t11, a2)),
            descale(add(t12, a1)),
            descale(add(t13, a0)),
            descale(sub(t13, a0)),
            descale(sub(t12, a1)),
            descale(sub(t11, a2)),
            descale(sub(t10, a3)),
        ]
    }};
}

/// [`jidctint_pass!`] on the portable lanes: the outputs descaled by `shift` after adding
/// `bias`.
#[inline(always)]
fn pass(i: [V; 8], shift: u32, bias: i32) -> [V; 8] {
    jidctint_pass!(
        i,
        V([bias; 8]),
        |a: V, b: V| a + b,
        |a: V, b: V| a - b,
        |a: V, k: i32| a * k,
        |a: V| a << 13,
        |a: V| a >> shift
    )
}

/// The first pass's descaling (`CONST_BITS − PASS1_BITS`) and the second's (with the +128
/// level shift folded into its bias).
const SHIFT_1: u32 = 11;
const SHIFT_2: u32 = 18;
const BIAS_1: i32 = 1 << (SHIFT_1 - 1);
const BIAS_2: i32 = (1 << (SHIFT_2 - 1)) + (128 << SHIFT_2);

/// Transforms a block `c` (stored transposed; `last`: the zigzag index of its last coefficient)
/// into 8 × 8 pixels at `out[0]`, rows `stride` apart, and leaves `c` zero again.
#[inline(always)]
fn idct<const SIMD: bool>(c: &mut [i32; 64], last: usize, out: &mut [u8], stride: usize) {
    let rows: [V; 8] = from_fn(|r| {
        let mut v = [0; 8];
        v.copy_from_slice(&c[r * 8..r * 8 + 8]);
        V(v)
    });
    *c = [0; 64];
    if last == 0 {
        // Only a DC coefficient: one grey level.
        let level = (rows[0].0[0].wrapping_add(4) >> 3).wrapping_add(128);
        let level = level.clamp(0, 255) as u8;
        for y in 0..8 {
            if let Some(row) = out.get_mut(y * stride..y * stride + 8) {
                row.fill(level);
            }
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if SIMD {
        #[allow(unsafe_code)]
        // SAFETY: on x86-64 `SIMD` is true only in `decode_scan_avx2`, called once the
        // processor was found to have AVX2.
        unsafe {
            avx2::idct(&rows, last <= 9, out, stride)
        };
        return;
    }
    #[cfg(target_arch = "aarch64")]
    if SIMD {
        #[allow(unsafe_code)]
        // SAFETY: every aarch64 processor has NEON (the target's baseline).
        unsafe {
            neon::idct(&rows, last <= 9, out, stride)
        };
        return;
    }
    // Rows of `rows` are horizontal frequencies, lanes vertical ones. The first pass goes along
    // the pixel rows (all eight at once), the second down the columns.
    let a = if last <= 9 {
        // All coefficients in the first four rows and columns.
        pass(
            [rows[0], rows[1], rows[2], rows[3], ZERO, ZERO, ZERO, ZERO],
            SHIFT_1,
            BIAS_1,
        )
    } else {
        pass(rows, SHIFT_1, BIAS_1)
    };
    let t: [V; 8] = from_fn(|v| V(from_fn(|x| a[x].0[v])));
    let b = if last <= 9 {
        pass(
            [t[0], t[1], t[2], t[3], ZERO, ZERO, ZERO, ZERO],
            SHIFT_2,
            BIAS_2,
        )
    } else {
        pass(t, SHIFT_2, BIAS_2)
    };
    for (y, line) in b.iter().enumerate() {
        let px: [u8; 8] = from_fn(|x| line.0[x].clamp(0, 255) as u8);
        if let Some(row) = out.get_mut(y * stride..y * stride + 8) {
            row.copy_from_slice(&px);
        }
    }
}

/// The transform in AVX2 instructions: a row of a block is one 256-bit register.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{BIAS_1, BIAS_2, SHIFT_1, SHIFT_2, V};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_extract_epi64, _mm256_mullo_epi32, _mm256_packs_epi32,
        _mm256_packus_epi16, _mm256_permute2x128_si256, _mm256_permutevar8x32_epi32,
        _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_slli_epi32,
        _mm256_srai_epi32, _mm256_sub_epi32, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
        _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    };

    #[inline]
    #[target_feature(enable = "avx2")]
    fn mul(a: __m256i, k: i32) -> __m256i {
        _mm256_mullo_epi32(a, _mm256_set1_epi32(k))
    }

    /// [`jidctint_pass!`] on registers; `SPARSE`: inputs 4–7 are zero.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn pass<const SHIFT: i32, const SPARSE: bool>(i: &[__m256i; 8], bias: i32) -> [__m256i; 8] {
        let zero = _mm256_setzero_si256();
        let i = if SPARSE {
            [i[0], i[1], i[2], i[3], zero, zero, zero, zero]
        } else {
            *i
        };
        jidctint_pass!(
            i,
            _mm256_set1_epi32(bias),
            _mm256_add_epi32,
            _mm256_sub_epi32,
            mul,
            _mm256_slli_epi32::<13>,
            _mm256_srai_epi32::<SHIFT>
        )
    }

    /// The rows of `r` as columns.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn transpose(r: &[__m256i; 8]) -> [__m256i; 8] {
        let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
        let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
        let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
        let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
        let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
        let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
        let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
        let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
        let u0 = _mm256_unpacklo_epi64(t0, t2);
        let u1 = _mm256_unpackhi_epi64(t0, t2);
        let u2 = _mm256_unpacklo_epi64(t1, t3);
        let u3 = _mm256_unpackhi_epi64(t1, t3);
        let u4 = _mm256_unpacklo_epi64(t4, t6);
        let u5 = _mm256_unpackhi_epi64(t4, t6);
        let u6 = _mm256_unpacklo_epi64(t5, t7);
        let u7 = _mm256_unpackhi_epi64(t5, t7);
        [
            _mm256_permute2x128_si256::<0x20>(u0, u4),
            _mm256_permute2x128_si256::<0x20>(u1, u5),
            _mm256_permute2x128_si256::<0x20>(u2, u6),
            _mm256_permute2x128_si256::<0x20>(u3, u7),
            _mm256_permute2x128_si256::<0x31>(u0, u4),
            _mm256_permute2x128_si256::<0x31>(u1, u5),
            _mm256_permute2x128_si256::<0x31>(u2, u6),
            _mm256_permute2x128_si256::<0x31>(u3, u7),
        ]
    }

    /// [`super::idct`]'s two passes; `sparse`: the coefficients all lie in the first four rows
    /// and columns.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn idct(rows: &[V; 8], sparse: bool, out: &mut [u8], stride: usize) {
        let r: [__m256i; 8] = std::array::from_fn(|k| {
            let v = &rows[k].0;
            _mm256_setr_epi32(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
        });
        let b = if sparse {
            let a = pass::<{ SHIFT_1 as i32 }, true>(&r, BIAS_1);
            pass::<{ SHIFT_2 as i32 }, true>(&transpose(&a), BIAS_2)
        } else {
            let a = pass::<{ SHIFT_1 as i32 }, false>(&r, BIAS_1);
            pass::<{ SHIFT_2 as i32 }, false>(&transpose(&a), BIAS_2)
        };
        // To bytes, saturating (the clamp to 0–255): rows 0–3 in one register, 4–7 in another,
        // each row's eight bytes one 64-bit lane once put in order.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let low = _mm256_packus_epi16(
            _mm256_packs_epi32(b[0], b[1]),
            _mm256_packs_epi32(b[2], b[3]),
        );
        let high = _mm256_packus_epi16(
            _mm256_packs_epi32(b[4], b[5]),
            _mm256_packs_epi32(b[6], b[7]),
        );
        let low = _mm256_permutevar8x32_epi32(low, order);
        let high = _mm256_permutevar8x32_epi32(high, order);
        let lines = [
            _mm256_extract_epi64::<0>(low),
            _mm256_extract_epi64::<1>(low),
            _mm256_extract_epi64::<2>(low),
            _mm256_extract_epi64::<3>(low),
            _mm256_extract_epi64::<0>(high),
            _mm256_extract_epi64::<1>(high),
            _mm256_extract_epi64::<2>(high),
            _mm256_extract_epi64::<3>(high),
        ];
        for (y, line) in lines.iter().enumerate() {
            if let Some(row) = out.get_mut(y * stride..y * stride + 8) {
                row.copy_from_slice(&line.to_le_bytes());
            }
        }
    }
}

/// The transform in NEON instructions (every aarch64 processor): a row of a block is two
/// 128-bit registers, its lanes 0–3 and 4–7.
#[cfg(target_arch = "aarch64")]
mod neon {
    use super::{BIAS_1, BIAS_2, SHIFT_1, SHIFT_2, V};
    use std::arch::aarch64::{
        int32x4_t, vaddq_s32, vcombine_s16, vdupq_n_s32, vget_lane_u64, vld1q_s32, vmulq_n_s32,
        vqmovn_s32, vqmovun_s16, vreinterpret_u64_u8, vreinterpretq_s32_s64, vreinterpretq_s64_s32,
        vshlq_n_s32, vshrq_n_s32, vsubq_s32, vtrn1q_s32, vtrn1q_s64, vtrn2q_s32, vtrn2q_s64,
    };

    /// A row: lanes 0–3, lanes 4–7.
    #[derive(Clone, Copy)]
    struct W(int32x4_t, int32x4_t);

    #[inline]
    #[target_feature(enable = "neon")]
    fn add(a: W, b: W) -> W {
        W(vaddq_s32(a.0, b.0), vaddq_s32(a.1, b.1))
    }

    #[inline]
    #[target_feature(enable = "neon")]
    fn sub(a: W, b: W) -> W {
        W(vsubq_s32(a.0, b.0), vsubq_s32(a.1, b.1))
    }

    #[inline]
    #[target_feature(enable = "neon")]
    fn mul(a: W, k: i32) -> W {
        W(vmulq_n_s32(a.0, k), vmulq_n_s32(a.1, k))
    }

    #[inline]
    #[target_feature(enable = "neon")]
    fn shl13(a: W) -> W {
        W(vshlq_n_s32::<13>(a.0), vshlq_n_s32::<13>(a.1))
    }

    #[inline]
    #[target_feature(enable = "neon")]
    fn shr<const N: i32>(a: W) -> W {
        W(vshrq_n_s32::<N>(a.0), vshrq_n_s32::<N>(a.1))
    }

    /// [`jidctint_pass!`] on registers; `SPARSE`: inputs 4–7 are zero.
    #[inline]
    #[target_feature(enable = "neon")]
    fn pass<const SHIFT: i32, const SPARSE: bool>(i: &[W; 8], bias: i32) -> [W; 8] {
        let zero = W(vdupq_n_s32(0), vdupq_n_s32(0));
        let i = if SPARSE {
            [i[0], i[1], i[2], i[3], zero, zero, zero, zero]
        } else {
            *i
        };
        jidctint_pass!(
            i,
            W(vdupq_n_s32(bias), vdupq_n_s32(bias)),
            add,
            sub,
            mul,
            shl13,
            shr::<SHIFT>
        )
    }

    /// A 4 × 4 block's rows as its columns.
    #[inline]
    #[target_feature(enable = "neon")]
    fn transpose4(a: [int32x4_t; 4]) -> [int32x4_t; 4] {
        let t0 = vreinterpretq_s64_s32(vtrn1q_s32(a[0], a[1]));
        let t1 = vreinterpretq_s64_s32(vtrn2q_s32(a[0], a[1]));
        let t2 = vreinterpretq_s64_s32(vtrn1q_s32(a[2], a[3]));
        let t3 = vreinterpretq_s64_s32(vtrn2q_s32(a[2], a[3]));
        [
            vreinterpretq_s32_s64(vtrn1q_s64(t0, t2)),
            vreinterpretq_s32_s64(vtrn1q_s64(t1, t3)),
            vreinterpretq_s32_s64(vtrn2q_s64(t0, t2)),
            vreinterpretq_s32_s64(vtrn2q_s64(t1, t3)),
        ]
    }

    /// The rows of `r` as columns: each 4 × 4 quarter transposed, the two off the diagonal
    /// swapped.
    #[inline]
    #[target_feature(enable = "neon")]
    fn transpose(r: &[W; 8]) -> [W; 8] {
        let a = transpose4([r[0].0, r[1].0, r[2].0, r[3].0]);
        let b = transpose4([r[0].1, r[1].1, r[2].1, r[3].1]);
        let c = transpose4([r[4].0, r[5].0, r[6].0, r[7].0]);
        let d = transpose4([r[4].1, r[5].1, r[6].1, r[7].1]);
        [
            W(a[0], c[0]),
            W(a[1], c[1]),
            W(a[2], c[2]),
            W(a[3], c[3]),
            W(b[0], d[0]),
            W(b[1], d[1]),
            W(b[2], d[2]),
            W(b[3], d[3]),
        ]
    }

    /// [`super::idct`]'s two passes; `sparse`: the coefficients all lie in the first four rows
    /// and columns.
    #[inline]
    #[target_feature(enable = "neon")]
    pub(super) fn idct(rows: &[V; 8], sparse: bool, out: &mut [u8], stride: usize) {
        let r: [W; 8] = std::array::from_fn(|k| {
            let v = &rows[k].0;
            #[allow(unsafe_code)]
            // SAFETY: `v` is eight i32s: lanes 0–3 are `v[0..4]`, lanes 4–7 `v[4..8]`.
            unsafe {
                W(vld1q_s32(v.as_ptr()), vld1q_s32(v[4..].as_ptr()))
            }
        });
        let b = if sparse {
            let a = pass::<{ SHIFT_1 as i32 }, true>(&r, BIAS_1);
            pass::<{ SHIFT_2 as i32 }, true>(&transpose(&a), BIAS_2)
        } else {
            let a = pass::<{ SHIFT_1 as i32 }, false>(&r, BIAS_1);
            pass::<{ SHIFT_2 as i32 }, false>(&transpose(&a), BIAS_2)
        };
        for (y, line) in b.iter().enumerate() {
            // To bytes, saturating (the clamp to 0–255): eight lanes, one 64-bit word.
            let bytes = vqmovun_s16(vcombine_s16(vqmovn_s32(line.0), vqmovn_s32(line.1)));
            let word = vget_lane_u64::<0>(vreinterpret_u64_u8(bytes));
            if let Some(row) = out.get_mut(y * stride..y * stride + 8) {
                row.copy_from_slice(&word.to_le_bytes());
            }
        }
    }
}

/// One component of the frame.
#[derive(Clone, Copy, Debug)]
struct Component {
    id: u8,
    h: usize,
    v: usize,
    quant: usize,
}

/// The frame header.
struct Frame {
    width: usize,
    height: usize,
    components: Vec<Component>,
}

/// One component of a scan: its index in the frame and its tables.
#[derive(Clone, Copy)]
struct ScanComponent {
    index: usize,
    dc: usize,
    ac: usize,
}

/// A marker segment's body, and the position after it.
fn segment(bytes: &[u8], pos: usize) -> Result<(&[u8], usize), Refused> {
    let len = match bytes.get(pos..pos + 2) {
        Some(&[a, b]) => usize::from(u16::from_be_bytes([a, b])),
        _ => return Err(Refused::Damaged("the picture ends inside a header")),
    };
    if len < 2 {
        return Err(Refused::Damaged("a header of a negative length"));
    }
    let body = bytes
        .get(pos + 2..pos + len)
        .ok_or(Refused::Damaged("the picture ends inside a header"))?;
    Ok((body, pos + len))
}

fn parse_frame(body: &[u8], max_side: usize) -> Result<Frame, Refused> {
    let [precision, h0, h1, w0, w1, count, rest @ ..] = body else {
        return Err(Refused::Damaged("a frame header too short"));
    };
    if *precision != 8 {
        return Err(Refused::Unsupported("samples of other than 8 bits"));
    }
    let height = usize::from(u16::from_be_bytes([*h0, *h1]));
    let width = usize::from(u16::from_be_bytes([*w0, *w1]));
    if height == 0 {
        return Err(Refused::Unsupported(
            "the height given after the data (DNL)",
        ));
    }
    if width == 0 || width > max_side || height > max_side {
        return Err(Refused::Damaged("a picture of no size or too large"));
    }
    let count = usize::from(*count);
    if count != 1 && count != 3 {
        return Err(Refused::Unsupported(
            "a picture of other than 1 or 3 components",
        ));
    }
    if rest.len() < 3 * count {
        return Err(Refused::Damaged("a frame header too short"));
    }
    let mut components = Vec::with_capacity(count);
    for c in rest.chunks_exact(3).take(count) {
        let (h, v) = (usize::from(c[1] >> 4), usize::from(c[1] & 15));
        if !(1..=4).contains(&h) || !(1..=4).contains(&v) || c[2] > 3 {
            return Err(Refused::Damaged(
                "a component's sampling or table out of range",
            ));
        }
        components.push(Component {
            id: c[0],
            h,
            v,
            quant: usize::from(c[2]),
        });
    }
    Ok(Frame {
        width,
        height,
        components,
    })
}

/// Decodes a JPEG picture's luma plane, at most `max_side` pixels a side.
///
/// # Errors
/// [`Refused`]: a kind of JPEG this decoder does not take, or a damaged one.
pub fn decode(bytes: &[u8], max_side: usize) -> Result<Luma, Refused> {
    decode_with(bytes, max_side, true)
}

/// [`decode`] in the portable code only: what a processor without AVX2 runs, and what a
/// Raspberry Pi runs (there the compiler makes NEON vector code of it). For measuring and
/// testing that code on a machine that has AVX2.
///
/// # Errors
/// As [`decode`].
pub fn decode_portable(bytes: &[u8], max_side: usize) -> Result<Luma, Refused> {
    decode_with(bytes, max_side, false)
}

/// [`decode`]; `simd`: with the processor's vector instructions where it has them.
fn decode_with(bytes: &[u8], max_side: usize, simd: bool) -> Result<Luma, Refused> {
    if !bytes.starts_with(&[0xFF, 0xD8]) {
        return Err(Refused::Damaged("not a JPEG picture"));
    }
    let mut dc: [Option<Huffman>; 4] = [
        Some(Huffman::new(&STD_DC_LUMA.0, STD_DC_LUMA.1, false)?),
        Some(Huffman::new(&STD_DC_CHROMA.0, STD_DC_CHROMA.1, false)?),
        None,
        None,
    ];
    let mut ac: [Option<Huffman>; 4] = [
        Some(Huffman::new(&STD_AC_LUMA.0, STD_AC_LUMA.1, true)?),
        Some(Huffman::new(&STD_AC_CHROMA.0, STD_AC_CHROMA.1, true)?),
        None,
        None,
    ];
    let mut quant: [Option<[i32; 64]>; 4] = [None; 4];
    let mut frame: Option<Frame> = None;
    let mut restart_interval = 0usize;
    let mut adobe_rgb = false;
    let mut pos = 2;
    loop {
        // The next marker: 0xFF, any fill 0xFF bytes, its code.
        if bytes.get(pos) != Some(&0xFF) {
            return Err(Refused::Damaged("a header where none may be"));
        }
        while bytes.get(pos) == Some(&0xFF) {
            pos += 1;
        }
        let Some(&marker) = bytes.get(pos) else {
            return Err(Refused::Damaged("the picture ends before its data"));
        };
        pos += 1;
        match marker {
            0xD8 => return Err(Refused::Damaged("a second start of picture")),
            0xD9 => return Err(Refused::Damaged("the picture ends before its data")),
            0x01 | 0xD0..=0xD7 => {}
            0xC0 | 0xC1 => {
                let (body, next) = segment(bytes, pos)?;
                if frame.is_some() {
                    return Err(Refused::Damaged("a second frame header"));
                }
                frame = Some(parse_frame(body, max_side)?);
                pos = next;
            }
            0xC2 | 0xC3 | 0xC5..=0xC7 | 0xC9..=0xCB | 0xCD..=0xCF => {
                return Err(Refused::Unsupported(
                    "progressive, lossless, hierarchical or arithmetic-coded",
                ));
            }
            0xC4 => {
                let (mut body, next) = segment(bytes, pos)?;
                while let [class_id, counts @ ..] = body {
                    let (class, id) = (class_id >> 4, usize::from(class_id & 15));
                    let Some(counts) = counts.get(..16) else {
                        return Err(Refused::Damaged("a Huffman table too short"));
                    };
                    let mut n = [0u8; 16];
                    n.copy_from_slice(counts);
                    let total: usize = n.iter().map(|&c| usize::from(c)).sum();
                    let symbols = body
                        .get(17..17 + total)
                        .ok_or(Refused::Damaged("a Huffman table too short"))?;
                    if class > 1 || id > 3 {
                        return Err(Refused::Damaged("a Huffman table of no class or place"));
                    }
                    let table = Huffman::new(&n, symbols, class == 1)?;
                    if class == 0 {
                        dc[id] = Some(table);
                    } else {
                        ac[id] = Some(table);
                    }
                    body = &body[17 + total..];
                }
                pos = next;
            }
            0xDB => {
                let (mut body, next) = segment(bytes, pos)?;
                while let [precision_id, values @ ..] = body {
                    let (precision, id) = (precision_id >> 4, usize::from(precision_id & 15));
                    if precision > 1 || id > 3 {
                        return Err(Refused::Damaged("a quantisation table of no kind or place"));
                    }
                    let size = if precision == 0 { 64 } else { 128 };
                    let values = values
                        .get(..size)
                        .ok_or(Refused::Damaged("a quantisation table too short"))?;
                    let table: [i32; 64] = from_fn(|k| {
                        if precision == 0 {
                            i32::from(values[k])
                        } else {
                            i32::from(u16::from_be_bytes([values[2 * k], values[2 * k + 1]]))
                        }
                    });
                    quant[id] = Some(table);
                    body = &body[1 + size..];
                }
                pos = next;
            }
            0xDD => {
                let (body, next) = segment(bytes, pos)?;
                let [a, b, ..] = body else {
                    return Err(Refused::Damaged("a restart interval too short"));
                };
                restart_interval = usize::from(u16::from_be_bytes([*a, *b]));
                pos = next;
            }
            0xEE => {
                let (body, next) = segment(bytes, pos)?;
                // Adobe's marker: transform 0 means RGB (or CMYK), not YCbCr.
                if body.len() >= 12 && body.starts_with(b"Adobe") && body[11] == 0 {
                    adobe_rgb = true;
                }
                pos = next;
            }
            0xDA => {
                let (body, next) = segment(bytes, pos)?;
                let frame = frame
                    .as_ref()
                    .ok_or(Refused::Damaged("picture data before its frame header"))?;
                let ids: Vec<u8> = frame.components.iter().map(|c| c.id).collect();
                if frame.components.len() == 3 && (adobe_rgb || ids == b"RGB") {
                    return Err(Refused::Unsupported("an RGB picture"));
                }
                let scan = parse_scan(body, frame)?;
                if !scan.iter().any(|s| s.index == 0) {
                    // A scan of chroma only: skip its data.
                    pos = next_marker_after_scan(bytes, next)
                        .ok_or(Refused::Damaged("the picture ends inside its data"))?;
                    continue;
                }
                let tables = Tables {
                    dc: &dc,
                    ac: &ac,
                    quant: &quant,
                };
                return decode_scan(bytes, next, frame, &scan, &tables, restart_interval, simd);
            }
            _ => {
                let (_, next) = segment(bytes, pos)?;
                pos = next;
            }
        }
    }
}

/// After a scan's data starting at `from`: the next marker other than a restart marker.
fn next_marker_after_scan(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        let at = next_marker_in_data(bytes, i)?;
        match bytes.get(at + 1)? {
            0xD0..=0xD7 => i = at + 2,
            _ => return Some(at),
        }
    }
}

fn parse_scan(body: &[u8], frame: &Frame) -> Result<Vec<ScanComponent>, Refused> {
    let [count, rest @ ..] = body else {
        return Err(Refused::Damaged("a scan header too short"));
    };
    let count = usize::from(*count);
    if count == 0 || count > frame.components.len() || rest.len() < 2 * count {
        return Err(Refused::Damaged(
            "a scan header of no or too many components",
        ));
    }
    let mut scan = Vec::with_capacity(count);
    for pair in rest.chunks_exact(2).take(count) {
        let index = frame
            .components
            .iter()
            .position(|c| c.id == pair[0])
            .ok_or(Refused::Damaged("a scan of a component not in the frame"))?;
        if scan.iter().any(|s: &ScanComponent| s.index == index) {
            return Err(Refused::Damaged("a component twice in one scan"));
        }
        let (dc, ac) = (usize::from(pair[1] >> 4), usize::from(pair[1] & 15));
        if dc > 3 || ac > 3 {
            return Err(Refused::Damaged("a scan's Huffman table out of range"));
        }
        scan.push(ScanComponent { index, dc, ac });
    }
    Ok(scan)
}

struct Tables<'t> {
    dc: &'t [Option<Huffman>; 4],
    ac: &'t [Option<Huffman>; 4],
    quant: &'t [Option<[i32; 64]>; 4],
}

/// Decodes the scan that holds the luma, whose data starts at `start`.
fn decode_scan(
    bytes: &[u8],
    start: usize,
    frame: &Frame,
    scan: &[ScanComponent],
    tables: &Tables,
    restart_interval: usize,
    simd: bool,
) -> Result<Luma, Refused> {
    #[cfg(target_arch = "x86_64")]
    {
        if simd
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            #[allow(unsafe_code)]
            // SAFETY: the processor has AVX2 and BMI2, just checked: all the function needs.
            return unsafe {
                decode_scan_avx2(bytes, start, frame, scan, tables, restart_interval)
            };
        }
        if std::arch::is_x86_feature_detected!("sse4.1") {
            #[allow(unsafe_code)]
            // SAFETY: the processor has SSE4.1, just checked: all the function needs.
            return unsafe {
                decode_scan_sse41(bytes, start, frame, scan, tables, restart_interval)
            };
        }
    }
    #[cfg(target_arch = "aarch64")]
    if simd {
        // NEON is part of every aarch64 processor (a Raspberry Pi 3, 4 and 5).
        return decode_scan_generic::<true>(bytes, start, frame, scan, tables, restart_interval);
    }
    let _ = simd;
    decode_scan_generic::<false>(bytes, start, frame, scan, tables, restart_interval)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
fn decode_scan_avx2(
    bytes: &[u8],
    start: usize,
    frame: &Frame,
    scan: &[ScanComponent],
    tables: &Tables,
    restart_interval: usize,
) -> Result<Luma, Refused> {
    decode_scan_generic::<true>(bytes, start, frame, scan, tables, restart_interval)
}

/// The portable code compiled with SSE4.1 (2008 on: `pmulld` multiplies four 32-bit lanes at
/// once, where plain SSE2 needs five instructions for it), for an x86-64 processor without AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
fn decode_scan_sse41(
    bytes: &[u8],
    start: usize,
    frame: &Frame,
    scan: &[ScanComponent],
    tables: &Tables,
    restart_interval: usize,
) -> Result<Luma, Refused> {
    decode_scan_generic::<false>(bytes, start, frame, scan, tables, restart_interval)
}

/// The scan's decoding; `SIMD`: with the transform in AVX2 (in [`decode_scan_avx2`]) or NEON.
#[inline(always)]
fn decode_scan_generic<const SIMD: bool>(
    bytes: &[u8],
    start: usize,
    frame: &Frame,
    scan: &[ScanComponent],
    tables: &Tables,
    restart_interval: usize,
) -> Result<Luma, Refused> {
    let luma = frame.components[0];
    let h_max = frame.components.iter().map(|c| c.h).max().unwrap_or(1);
    let v_max = frame.components.iter().map(|c| c.v).max().unwrap_or(1);
    if luma.h != h_max || luma.v != v_max {
        return Err(Refused::Unsupported(
            "a luma plane sampled below the chroma",
        ));
    }
    let mcus_x = frame.width.div_ceil(8 * h_max);
    let mcus_y = frame.height.div_ceil(8 * v_max);
    let stride = mcus_x * luma.h * 8;
    let rows = mcus_y * luma.v * 8;
    let quant = tables.quant[luma.quant]
        .as_ref()
        .ok_or(Refused::Damaged("the luma's quantisation table is missing"))?;
    let mut huffman = Vec::with_capacity(scan.len());
    for s in scan {
        let dc = tables.dc[s.dc]
            .as_ref()
            .ok_or(Refused::Damaged("a Huffman table is missing"))?;
        let ac = tables.ac[s.ac]
            .as_ref()
            .ok_or(Refused::Damaged("a Huffman table is missing"))?;
        huffman.push((dc, ac));
    }
    let mut out = vec![0u8; stride * rows];
    let mut bits = Bits::new(bytes, start);
    let mut preds = [0i32; 4];
    let mut c = [0i32; 64];
    let mut todo = restart_interval;
    let mut next_restart = 0u8;
    let mut restart = |bits: &mut Bits, preds: &mut [i32; 4]| -> Result<(), Refused> {
        if restart_interval > 0 {
            if todo == 0 {
                *bits = bits.restart(next_restart)?;
                next_restart = next_restart.wrapping_add(1);
                *preds = [0; 4];
                todo = restart_interval;
            }
            todo -= 1;
        }
        Ok(())
    };
    // Not interleaved (one component in the scan: a grey picture, or a scan per component), a
    // unit is one of the luma's blocks; interleaved, an MCU of each component's blocks.
    let interleaved = scan.len() > 1;
    let (units_x, units_y) = if interleaved {
        (mcus_x, mcus_y)
    } else {
        (frame.width.div_ceil(8), frame.height.div_ceil(8))
    };
    for uy in 0..units_y {
        for ux in 0..units_x {
            restart(&mut bits, &mut preds)?;
            for (s, &(dc, ac)) in scan.iter().zip(&huffman) {
                let comp = frame.components[s.index];
                let (ch, cv) = if interleaved {
                    (comp.h, comp.v)
                } else {
                    (1, 1)
                };
                let pred = &mut preds[s.index & 3];
                if s.index == 0 {
                    for v in 0..cv {
                        for h in 0..ch {
                            let last = block::<true>(&mut bits, dc, ac, pred, quant, &mut c)?;
                            let at = (uy * cv + v) * 8 * stride + (ux * ch + h) * 8;
                            idct::<SIMD>(&mut c, last, &mut out[at..], stride);
                        }
                    }
                } else {
                    for _ in 0..cv * ch {
                        block::<false>(&mut bits, dc, ac, pred, quant, &mut c)?;
                    }
                }
            }
        }
        if bits.pad > bits.n + 64 {
            return Err(Refused::Damaged("the picture's data ends early"));
        }
    }
    if bits.overrun() {
        return Err(Refused::Damaged("the picture's data ends early"));
    }
    let (width, height) = (frame.width, frame.height);
    if stride != width {
        for y in 1..height {
            out.copy_within(y * stride..y * stride + width, y * width);
        }
    }
    out.truncate(width * height);
    Ok(Luma {
        width,
        height,
        pixels: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A small baseline JPEG encoder, for pictures `image`'s encoder does not make: any sampling
    /// factors, restart intervals, no Huffman tables (MJPEG), one scan per component, 16-bit
    /// quantisation tables.
    #[derive(Clone)]
    struct Enc {
        /// Each component's sampling factors; one component: grey.
        sampling: Vec<(usize, usize)>,
        restart: usize,
        dht: bool,
        interleaved: bool,
        /// With `interleaved` false: the luma's scan last.
        luma_last: bool,
        quant16: bool,
    }

    impl Enc {
        fn new(sampling: &[(usize, usize)]) -> Self {
            Self {
                sampling: sampling.to_vec(),
                restart: 0,
                dht: true,
                interleaved: true,
                luma_last: false,
                quant16: false,
            }
        }
    }

    struct Writer {
        out: Vec<u8>,
        acc: u32,
        n: u32,
    }

    impl Writer {
        fn put(&mut self, code: u32, len: u32) {
            for i in (0..len).rev() {
                self.acc = (self.acc << 1) | ((code >> i) & 1);
                self.n += 1;
                if self.n == 8 {
                    let b = self.acc as u8;
                    self.out.push(b);
                    if b == 0xFF {
                        self.out.push(0);
                    }
                    self.acc = 0;
                    self.n = 0;
                }
            }
        }
        fn flush(&mut self) {
            while self.n != 0 {
                self.put(1, 1);
            }
        }
    }

    fn codes(table: &([u8; 16], &[u8])) -> [(u32, u32); 256] {
        let mut out = [(0, 0); 256];
        let (mut code, mut k) = (0u32, 0usize);
        for len in 1..=16 {
            for _ in 0..table.0[len - 1] {
                out[usize::from(table.1[k])] = (code, len as u32);
                code += 1;
                k += 1;
            }
            code <<= 1;
        }
        out
    }

    fn category(v: i32) -> (u32, u32) {
        let s = 32 - v.unsigned_abs().leading_zeros();
        let bits = if v < 0 { v - 1 } else { v } as u32 & ((1u32 << s) - 1);
        (s, bits)
    }

    fn quant(comp: usize) -> [u16; 64] {
        from_fn(|k| (if comp == 0 { 3 + k / 3 } else { 5 + k / 2 }) as u16)
    }

    /// The quantised coefficients (zigzag order) of the 8 × 8 block at `(bx, by)` of `plane`.
    fn fdct(plane: &[u8], pw: usize, ph: usize, bx: usize, by: usize, q: &[u16; 64]) -> [i32; 64] {
        let px = |x: usize, y: usize| {
            f64::from(plane[(by * 8 + y).min(ph - 1) * pw + (bx * 8 + x).min(pw - 1)]) - 128.0
        };
        let c = |u: usize| {
            if u == 0 {
                std::f64::consts::FRAC_1_SQRT_2
            } else {
                1.0
            }
        };
        from_fn(|k| {
            let n = usize::from(ZIGZAG[k]);
            let (v, u) = (n / 8, n % 8);
            let mut sum = 0.0;
            for y in 0..8 {
                for x in 0..8 {
                    sum += px(x, y)
                        * ((2 * x + 1) as f64 * u as f64 * std::f64::consts::PI / 16.0).cos()
                        * ((2 * y + 1) as f64 * v as f64 * std::f64::consts::PI / 16.0).cos();
                }
            }
            (0.25 * c(u) * c(v) * sum / f64::from(q[k])).round() as i32
        })
    }

    fn put_block(w: &mut Writer, coef: &[i32; 64], pred: &mut i32, comp: usize) {
        let (dc, ac) = if comp == 0 {
            (codes(&STD_DC_LUMA), codes(&STD_AC_LUMA))
        } else {
            (codes(&STD_DC_CHROMA), codes(&STD_AC_CHROMA))
        };
        let (s, bits) = category(coef[0] - *pred);
        *pred = coef[0];
        w.put(dc[s as usize].0, dc[s as usize].1);
        w.put(bits, s);
        let mut run = 0;
        for &v in &coef[1..] {
            if v == 0 {
                run += 1;
                continue;
            }
            while run >= 16 {
                w.put(ac[0xF0].0, ac[0xF0].1);
                run -= 16;
            }
            let (s, bits) = category(v);
            let sym = (run << 4) as usize | s as usize;
            w.put(ac[sym].0, ac[sym].1);
            w.put(bits, s);
            run = 0;
        }
        if run > 0 {
            w.put(ac[0].0, ac[0].1);
        }
    }

    fn segment(out: &mut Vec<u8>, marker: u8, body: &[u8]) {
        out.extend_from_slice(&[0xFF, marker]);
        out.extend_from_slice(&((body.len() + 2) as u16).to_be_bytes());
        out.extend_from_slice(body);
    }

    /// Encodes `planes` (full-size Y, Cb, Cr; or Y only) of a `w` × `h` picture.
    fn encode(e: &Enc, planes: &[Vec<u8>], w: usize, h: usize) -> Vec<u8> {
        let n = e.sampling.len();
        let hmax = e.sampling.iter().map(|s| s.0).max().unwrap();
        let vmax = e.sampling.iter().map(|s| s.1).max().unwrap();
        // Each component's plane, subsampled.
        let sub: Vec<(Vec<u8>, usize, usize)> = (0..n)
            .map(|c| {
                let (hc, vc) = e.sampling[c];
                let (cw, ch) = ((w * hc).div_ceil(hmax), (h * vc).div_ceil(vmax));
                let p = (0..cw * ch)
                    .map(|i| {
                        let (x, y) = (i % cw, i / cw);
                        planes[c][(y * vmax / vc).min(h - 1) * w + (x * hmax / hc).min(w - 1)]
                    })
                    .collect();
                (p, cw, ch)
            })
            .collect();
        let mut out = vec![0xFF, 0xD8];
        for c in 0..n.min(2) {
            let q = quant(c);
            let mut body = vec![(u8::from(e.quant16) << 4) | c as u8];
            for v in q {
                if e.quant16 {
                    body.extend_from_slice(&v.to_be_bytes());
                } else {
                    body.push(v as u8);
                }
            }
            segment(&mut out, 0xDB, &body);
        }
        let mut sof = vec![8];
        sof.extend_from_slice(&(h as u16).to_be_bytes());
        sof.extend_from_slice(&(w as u16).to_be_bytes());
        sof.push(n as u8);
        for (c, (hc, vc)) in e.sampling.iter().enumerate() {
            sof.extend_from_slice(&[c as u8 + 1, (*hc as u8) << 4 | *vc as u8, c.min(1) as u8]);
        }
        segment(&mut out, 0xC0, &sof);
        if e.dht {
            for (class_id, t) in [
                (0x00, STD_DC_LUMA),
                (0x10, STD_AC_LUMA),
                (0x01, STD_DC_CHROMA),
                (0x11, STD_AC_CHROMA),
            ] {
                let mut body = vec![class_id];
                body.extend_from_slice(&t.0);
                body.extend_from_slice(t.1);
                segment(&mut out, 0xC4, &body);
            }
        }
        if e.restart > 0 {
            segment(&mut out, 0xDD, &(e.restart as u16).to_be_bytes());
        }
        let scans: Vec<Vec<usize>> = if e.interleaved || n == 1 {
            vec![(0..n).collect()]
        } else if e.luma_last {
            (1..n).chain([0]).map(|c| vec![c]).collect()
        } else {
            (0..n).map(|c| vec![c]).collect()
        };
        for scan in scans {
            let mut sos = vec![scan.len() as u8];
            for &c in &scan {
                sos.extend_from_slice(&[c as u8 + 1, if c == 0 { 0x00 } else { 0x11 }]);
            }
            sos.extend_from_slice(&[0, 63, 0]);
            segment(&mut out, 0xDA, &sos);
            let mut wr = Writer {
                out: std::mem::take(&mut out),
                acc: 0,
                n: 0,
            };
            let mut preds = [0i32; 3];
            let mut units = 0usize;
            let mut restart = |wr: &mut Writer, preds: &mut [i32; 3]| {
                if e.restart > 0 && units > 0 && units.is_multiple_of(e.restart) {
                    wr.flush();
                    wr.out
                        .extend_from_slice(&[0xFF, 0xD0 + ((units / e.restart - 1) % 8) as u8]);
                    *preds = [0; 3];
                }
                units += 1;
            };
            if scan.len() == 1 {
                let c = scan[0];
                let (p, cw, ch) = &sub[c];
                let q = quant(c);
                for by in 0..ch.div_ceil(8) {
                    for bx in 0..cw.div_ceil(8) {
                        restart(&mut wr, &mut preds);
                        put_block(&mut wr, &fdct(p, *cw, *ch, bx, by, &q), &mut preds[c], c);
                    }
                }
            } else {
                for my in 0..h.div_ceil(8 * vmax) {
                    for mx in 0..w.div_ceil(8 * hmax) {
                        restart(&mut wr, &mut preds);
                        for &c in &scan {
                            let (hc, vc) = e.sampling[c];
                            let (p, cw, ch) = &sub[c];
                            let q = quant(c);
                            for v in 0..vc {
                                for u in 0..hc {
                                    let coef = fdct(p, *cw, *ch, mx * hc + u, my * vc + v, &q);
                                    put_block(&mut wr, &coef, &mut preds[c], c);
                                }
                            }
                        }
                    }
                }
            }
            wr.flush();
            out = wr.out;
        }
        out.extend_from_slice(&[0xFF, 0xD9]);
        out
    }

    /// A picture: smooth areas, edges (a dark square, as a tag's modules) and noise.
    fn planes(w: usize, h: usize, seed: u64) -> Vec<Vec<u8>> {
        let mut r = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut noise = move || {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            (r % 23) as i32 - 11
        };
        let y = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let square = (x / 4 + y / 4) % 3 == 0 && x < w / 2;
                let base = if square {
                    30
                } else {
                    60 + (150 * x / w.max(1)) as i32
                };
                (base + if y > h / 2 { noise() } else { 0 }).clamp(0, 255) as u8
            })
            .collect();
        let cb = (0..w * h).map(|i| (100 + (i % 37)) as u8).collect();
        let cr = (0..w * h).map(|i| (150 - (i % 29)) as u8).collect();
        vec![y, cb, cr]
    }

    fn zune(bytes: &[u8]) -> Vec<u8> {
        crate::vision::luma::from_jpeg_general(bytes)
            .unwrap()
            .into_raw()
    }

    fn worst(a: &[u8], b: &[u8]) -> u8 {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0)
    }

    fn mean(a: &[u8], b: &[u8]) -> f64 {
        let sum: u64 = a
            .iter()
            .zip(b)
            .map(|(x, y)| u64::from(x.abs_diff(*y)))
            .sum();
        sum as f64 / a.len().max(1) as f64
    }

    /// Decodes `jpeg` both ways (vector and portable code) and checks both against zune-jpeg
    /// (to the transforms' rounding) and against the picture encoded (to the quantisation).
    fn check(what: &str, jpeg: &[u8], original: &[u8], w: usize, h: usize) {
        check_against(what, jpeg, original, w, h, Some(zune(jpeg)));
    }

    fn check_against(
        what: &str,
        jpeg: &[u8],
        original: &[u8],
        w: usize,
        h: usize,
        reference: Option<Vec<u8>>,
    ) {
        // The vector and the portable code compute the same integers.
        assert_eq!(
            decode_with(jpeg, 8192, true),
            decode_with(jpeg, 8192, false),
            "{what}"
        );
        for simd in [true, false] {
            let ours = decode_with(jpeg, 8192, simd).unwrap_or_else(|e| panic!("{what}: {e:?}"));
            assert_eq!((ours.width, ours.height), (w, h), "{what}");
            if let Some(reference) = &reference {
                let off = worst(&ours.pixels, reference);
                assert!(off <= 2, "{what} (simd {simd}): {off} from zune-jpeg");
            }
            let m = mean(&ours.pixels, original);
            assert!(
                m < 4.0,
                "{what} (simd {simd}): {m:.2} from the original on average"
            );
        }
    }

    #[test]
    fn every_sampling_size_and_restart_interval_decodes_as_zune_jpeg_does() {
        let samplings: [&[(usize, usize)]; 7] = [
            &[(1, 1)],
            &[(2, 2)],
            &[(1, 1), (1, 1), (1, 1)],
            &[(2, 1), (1, 1), (1, 1)],
            &[(2, 2), (1, 1), (1, 1)],
            &[(4, 1), (1, 1), (1, 1)],
            &[(1, 2), (1, 1), (1, 1)],
        ];
        for sampling in samplings {
            for (w, h) in [(1, 1), (7, 5), (17, 9), (33, 47), (64, 48)] {
                for restart in [0, 1, 3] {
                    let mut e = Enc::new(sampling);
                    e.restart = restart;
                    let p = planes(w, h, (w * h + restart) as u64);
                    let jpeg = encode(&e, &p[..sampling.len()], w, h);
                    let what = format!("{sampling:?} {w}x{h} restart {restart}");
                    check(&what, &jpeg, &p[0], w, h);
                }
            }
        }
    }

    #[test]
    fn mjpeg_without_tables_scans_per_component_and_16_bit_tables_decode() {
        let (w, h) = (50, 34);
        let p = planes(w, h, 5);
        // A webcam's MJPEG frame carries no Huffman tables: the standard ones are meant. (The
        // general decoder refuses such a frame: "No DC table for component Y".)
        let mut e = Enc::new(&[(2, 1), (1, 1), (1, 1)]);
        let with = decode(&encode(&e, &p, w, h), 8192).unwrap();
        e.dht = false;
        let mjpeg = encode(&e, &p, w, h);
        assert_eq!(decode(&mjpeg, 8192).unwrap(), with);
        assert!(crate::vision::luma::from_jpeg_general(&mjpeg).is_err());
        assert_eq!(
            crate::vision::luma::from_jpeg(&mjpeg).unwrap().into_raw(),
            with.pixels
        );
        // One scan per component (the JPEG standard's A.2.2: a component's own blocks, not the
        // interleaved MCU grid's). zune-jpeg 0.5 decodes these wrongly (65 grey levels off on
        // average), so only the original is the reference.
        let mut e = Enc::new(&[(2, 2), (1, 1), (1, 1)]);
        e.interleaved = false;
        for (restart, luma_last) in [(0, false), (2, false), (2, true)] {
            e.restart = restart;
            e.luma_last = luma_last;
            let what = format!("a scan per component, restart {restart}, luma last {luma_last}");
            check_against(&what, &encode(&e, &p, w, h), &p[0], w, h, None);
        }
        let mut e = Enc::new(&[(1, 1), (1, 1), (1, 1)]);
        e.quant16 = true;
        check("16-bit tables", &encode(&e, &p, w, h), &p[0], w, h);
        // The image crate's own encoder, at several qualities.
        let rgb = image::RgbImage::from_fn(161, 97, |x, y| {
            let v = ((x * 255) / 161) as u8;
            let n = ((x * 7919 + y * 104_729) % 61) as u8;
            image::Rgb([v.wrapping_add(n), (y * 2) as u8, 255 - v])
        });
        for q in [10, 50, 85, 100] {
            let mut jpeg = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, q)
                .encode_image(&rgb)
                .unwrap();
            let ours = decode(&jpeg, 8192).unwrap();
            assert!(worst(&ours.pixels, &zune(&jpeg)) <= 2, "quality {q}");
        }
    }

    #[test]
    fn other_kinds_are_left_to_the_general_decoder_and_damage_is_named() {
        let (w, h) = (24, 16);
        let p = planes(w, h, 9);
        let jpeg = encode(&Enc::new(&[(2, 1), (1, 1), (1, 1)]), &p, w, h);
        let sof = jpeg.windows(2).position(|m| m == [0xFF, 0xC0]).unwrap();
        // Progressive (SOF2), 12-bit samples, RGB component ids, a luma sampled below chroma.
        let mut progressive = jpeg.clone();
        progressive[sof + 1] = 0xC2;
        assert!(matches!(
            decode(&progressive, 8192),
            Err(Refused::Unsupported(_))
        ));
        let mut twelve = jpeg.clone();
        twelve[sof + 4] = 12;
        assert!(matches!(
            decode(&twelve, 8192),
            Err(Refused::Unsupported(_))
        ));
        let mut rgb = jpeg.clone();
        for (k, id) in b"RGB".iter().enumerate() {
            rgb[sof + 10 + 3 * k] = *id;
        }
        // (the scan header names its components by id too)
        let sos = rgb.windows(2).position(|m| m == [0xFF, 0xDA]).unwrap();
        for (k, id) in b"RGB".iter().enumerate() {
            rgb[sos + 5 + 2 * k] = *id;
        }
        assert!(matches!(decode(&rgb, 8192), Err(Refused::Unsupported(_))));
        let mut below = jpeg.clone();
        below[sof + 11] = 0x11;
        below[sof + 14] = 0x21;
        assert!(matches!(decode(&below, 8192), Err(Refused::Unsupported(_))));
        // Too large for the caller's limit; not a JPEG; cut short; a restart marker missing.
        assert!(matches!(decode(&jpeg, 20), Err(Refused::Damaged(_))));
        assert!(matches!(decode(b"GIF89a", 8192), Err(Refused::Damaged(_))));
        let cut = &jpeg[..jpeg.len() * 2 / 3];
        assert!(
            matches!(decode(cut, 8192), Err(Refused::Damaged(_))),
            "cut short"
        );
        let mut e = Enc::new(&[(1, 1)]);
        e.restart = 1;
        let mut restarts = encode(&e, &p[..1], w, h);
        let rst = restarts.windows(2).position(|m| m == [0xFF, 0xD0]).unwrap();
        restarts[rst + 1] = 0xD3;
        assert!(matches!(decode(&restarts, 8192), Err(Refused::Damaged(_))));
        // Each of them still reads through luma::from_jpeg (the general decoder) or is an error
        // in one line; none panics.
        for bytes in [&progressive[..], &twelve, &rgb, &below, cut, &restarts] {
            if let Err(e) = crate::vision::luma::from_jpeg(bytes) {
                assert!(!e.to_string().contains('\n'), "{e}");
            }
        }
    }

    #[test]
    fn a_huge_picture_with_no_data_is_refused_after_one_row_of_blocks() {
        let mut e = Enc::new(&[(1, 1)]);
        e.dht = false;
        let p = planes(8, 8, 1);
        let mut jpeg = encode(&e, &p[..1], 8, 8);
        let sof = jpeg.windows(2).position(|m| m == [0xFF, 0xC0]).unwrap();
        jpeg[sof + 5..sof + 9].copy_from_slice(&[0x20, 0x00, 0x20, 0x00]); // 8192 × 8192
        assert!(matches!(decode(&jpeg, 8192), Err(Refused::Damaged(_))));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Damaged pictures — bytes changed, cut, repeated — are decoded or refused; never a
        /// panic (the transform's arithmetic wraps), never more work than the picture's size.
        #[test]
        fn damaged_pictures_never_panic(
            seed in 0u64..4,
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
            cut in any::<prop::sample::Index>(),
            simd in any::<bool>(),
        ) {
            let sampling: [&[(usize, usize)]; 4] =
                [&[(1, 1)], &[(2, 1), (1, 1), (1, 1)], &[(2, 2), (1, 1), (1, 1)], &[(1, 1), (1, 1), (1, 1)]];
            let mut e = Enc::new(sampling[seed as usize]);
            e.restart = seed as usize % 3;
            e.dht = seed != 2;
            let p = planes(40, 24, seed);
            let mut jpeg = encode(&e, &p[..e.sampling.len()], 40, 24);
            for (at, byte) in edits {
                let i = at.index(jpeg.len());
                jpeg[i] = byte;
            }
            let keep = cut.index(jpeg.len()).max(jpeg.len() / 2);
            let bytes = &jpeg[..keep];
            let decoded = decode_with(bytes, 8192, simd);
            prop_assert_eq!(&decoded, &decode_with(bytes, 8192, !simd));
            if let Ok(luma) = decoded {
                prop_assert_eq!(luma.pixels.len(), luma.width * luma.height);
            }
        }
    }
}
