//! A module grid to text, all ours: format information, the code words in their zigzag order,
//! Reed–Solomon error correction per block (log tables: a few thousand table look-ups for a
//! version-4 code, where `rqrr`'s raises the generator to a power term by term, ~10 M
//! instructions) and the data segments (numeric, alphanumeric, byte, kanji, ECI, FNC1 and
//! structured append headers; hanzi). Bounded by the grid's size (at most 177 × 177 modules), no
//! allocation beyond the code words, and every read checked, so no input can panic or loop.

/// One version's layout: its total code words, its alignment pattern rows/columns (0 ends the
/// list) and per error correction level (indexed by the format bits: M, L, H, Q) the short
/// blocks' size, their data code words and how many there are (long blocks have one data code
/// word more and make up the rest), as in ISO/IEC 18004 Table 9 (and `rqrr`'s copy of it).
struct Version {
    codewords: u16,
    align: [u8; 7],
    blocks: [[u8; 3]; 4],
}

#[rustfmt::skip]
const VERSIONS: [Version; 40] = [
    Version { codewords: 26, align: [0, 0, 0, 0, 0, 0, 0], blocks: [[26, 16, 1], [26, 19, 1], [26, 9, 1], [26, 13, 1]] }, // 1
    Version { codewords: 44, align: [6, 18, 0, 0, 0, 0, 0], blocks: [[44, 28, 1], [44, 34, 1], [44, 16, 1], [44, 22, 1]] }, // 2
    Version { codewords: 70, align: [6, 22, 0, 0, 0, 0, 0], blocks: [[70, 44, 1], [70, 55, 1], [35, 13, 2], [35, 17, 2]] }, // 3
    Version { codewords: 100, align: [6, 26, 0, 0, 0, 0, 0], blocks: [[50, 32, 2], [100, 80, 1], [25, 9, 4], [50, 24, 2]] }, // 4
    Version { codewords: 134, align: [6, 30, 0, 0, 0, 0, 0], blocks: [[67, 43, 2], [134, 108, 1], [33, 11, 2], [33, 15, 2]] }, // 5
    Version { codewords: 172, align: [6, 34, 0, 0, 0, 0, 0], blocks: [[43, 27, 4], [86, 68, 2], [43, 15, 4], [43, 19, 4]] }, // 6
    Version { codewords: 196, align: [6, 22, 38, 0, 0, 0, 0], blocks: [[49, 31, 4], [98, 78, 2], [39, 13, 4], [32, 14, 2]] }, // 7
    Version { codewords: 242, align: [6, 24, 42, 0, 0, 0, 0], blocks: [[60, 38, 2], [121, 97, 2], [40, 14, 4], [40, 18, 4]] }, // 8
    Version { codewords: 292, align: [6, 26, 46, 0, 0, 0, 0], blocks: [[58, 36, 3], [146, 116, 2], [36, 12, 4], [36, 16, 4]] }, // 9
    Version { codewords: 346, align: [6, 28, 50, 0, 0, 0, 0], blocks: [[69, 43, 4], [86, 68, 2], [43, 15, 6], [43, 19, 6]] }, // 10
    Version { codewords: 404, align: [6, 30, 54, 0, 0, 0, 0], blocks: [[80, 50, 1], [101, 81, 4], [36, 12, 3], [50, 22, 4]] }, // 11
    Version { codewords: 466, align: [6, 32, 58, 0, 0, 0, 0], blocks: [[58, 36, 6], [116, 92, 2], [42, 14, 7], [46, 20, 4]] }, // 12
    Version { codewords: 532, align: [6, 34, 62, 0, 0, 0, 0], blocks: [[59, 37, 8], [133, 107, 4], [33, 11, 12], [44, 20, 8]] }, // 13
    Version { codewords: 581, align: [6, 26, 46, 66, 0, 0, 0], blocks: [[64, 40, 4], [145, 115, 3], [36, 12, 11], [36, 16, 11]] }, // 14
    Version { codewords: 655, align: [6, 26, 48, 70, 0, 0, 0], blocks: [[65, 41, 5], [109, 87, 5], [36, 12, 11], [54, 24, 5]] }, // 15
    Version { codewords: 733, align: [6, 26, 50, 74, 0, 0, 0], blocks: [[73, 45, 7], [122, 98, 5], [45, 15, 3], [43, 19, 15]] }, // 16
    Version { codewords: 815, align: [6, 30, 54, 78, 0, 0, 0], blocks: [[74, 46, 10], [135, 107, 1], [42, 14, 2], [50, 22, 1]] }, // 17
    Version { codewords: 901, align: [6, 30, 56, 82, 0, 0, 0], blocks: [[69, 43, 9], [150, 120, 5], [42, 14, 2], [50, 22, 17]] }, // 18
    Version { codewords: 991, align: [6, 30, 58, 86, 0, 0, 0], blocks: [[70, 44, 3], [141, 113, 3], [39, 13, 9], [47, 21, 17]] }, // 19
    Version { codewords: 1085, align: [6, 34, 62, 90, 0, 0, 0], blocks: [[67, 41, 3], [135, 107, 3], [43, 15, 15], [54, 24, 15]] }, // 20
    Version { codewords: 1156, align: [6, 28, 50, 72, 92, 0, 0], blocks: [[68, 42, 17], [144, 116, 4], [46, 16, 19], [50, 22, 17]] }, // 21
    Version { codewords: 1258, align: [6, 26, 50, 74, 98, 0, 0], blocks: [[74, 46, 17], [139, 111, 2], [37, 13, 34], [54, 24, 7]] }, // 22
    Version { codewords: 1364, align: [6, 30, 54, 78, 102, 0, 0], blocks: [[75, 47, 4], [151, 121, 4], [45, 15, 16], [54, 24, 11]] }, // 23
    Version { codewords: 1474, align: [6, 28, 54, 80, 106, 0, 0], blocks: [[73, 45, 6], [147, 117, 6], [46, 16, 30], [54, 24, 11]] }, // 24
    Version { codewords: 1588, align: [6, 32, 58, 84, 110, 0, 0], blocks: [[75, 47, 8], [132, 106, 8], [45, 15, 22], [54, 24, 7]] }, // 25
    Version { codewords: 1706, align: [6, 30, 58, 86, 114, 0, 0], blocks: [[74, 46, 19], [142, 114, 10], [46, 16, 33], [50, 22, 28]] }, // 26
    Version { codewords: 1828, align: [6, 34, 62, 90, 118, 0, 0], blocks: [[73, 45, 22], [152, 122, 8], [45, 15, 12], [53, 23, 8]] }, // 27
    Version { codewords: 1921, align: [6, 26, 50, 74, 98, 122, 0], blocks: [[73, 45, 3], [147, 117, 3], [45, 15, 11], [54, 24, 4]] }, // 28
    Version { codewords: 2051, align: [6, 30, 54, 78, 102, 126, 0], blocks: [[73, 45, 21], [146, 116, 7], [45, 15, 19], [53, 23, 1]] }, // 29
    Version { codewords: 2185, align: [6, 26, 52, 78, 104, 130, 0], blocks: [[75, 47, 19], [145, 115, 5], [45, 15, 23], [54, 24, 15]] }, // 30
    Version { codewords: 2323, align: [6, 30, 56, 82, 108, 134, 0], blocks: [[74, 46, 2], [145, 115, 13], [45, 15, 23], [54, 24, 42]] }, // 31
    Version { codewords: 2465, align: [6, 34, 60, 86, 112, 138, 0], blocks: [[74, 46, 10], [145, 115, 17], [45, 15, 19], [54, 24, 10]] }, // 32
    Version { codewords: 2611, align: [6, 30, 58, 86, 114, 142, 0], blocks: [[74, 46, 14], [145, 115, 17], [45, 15, 11], [54, 24, 29]] }, // 33
    Version { codewords: 2761, align: [6, 34, 62, 90, 118, 146, 0], blocks: [[74, 46, 14], [145, 115, 13], [46, 16, 59], [54, 24, 44]] }, // 34
    Version { codewords: 2876, align: [6, 30, 54, 78, 102, 126, 150], blocks: [[75, 47, 12], [151, 121, 12], [45, 15, 22], [54, 24, 39]] }, // 35
    Version { codewords: 3034, align: [6, 24, 50, 76, 102, 128, 154], blocks: [[75, 47, 6], [151, 121, 6], [45, 15, 2], [54, 24, 46]] }, // 36
    Version { codewords: 3196, align: [6, 28, 54, 80, 106, 132, 158], blocks: [[74, 46, 29], [152, 122, 17], [45, 15, 24], [54, 24, 49]] }, // 37
    Version { codewords: 3362, align: [6, 32, 58, 84, 110, 136, 162], blocks: [[74, 46, 13], [152, 122, 4], [45, 15, 42], [54, 24, 48]] }, // 38
    Version { codewords: 3532, align: [6, 26, 54, 82, 110, 138, 166], blocks: [[75, 47, 40], [147, 117, 20], [45, 15, 10], [54, 24, 43]] }, // 39
    Version { codewords: 3706, align: [6, 30, 58, 86, 114, 142, 170], blocks: [[75, 47, 18], [148, 118, 19], [45, 15, 20], [54, 24, 34]] }, // 40
];

/// The rows (and columns) of the alignment pattern centres of an `n`-module code, in modules
/// from its top left (none for version 1 or a size that is no version).
pub(super) fn alignment_positions(n: usize) -> &'static [u8] {
    if n < 21 || !(n - 17).is_multiple_of(4) {
        return &[];
    }
    VERSIONS.get((n - 17) / 4 - 1).map_or(&[], |v| {
        let len = v.align.iter().take_while(|&&a| a != 0).count();
        &v.align[..len]
    })
}

/// A decoded symbol.
pub(super) struct Symbol {
    pub text: String,
    /// 1–40.
    pub version: u8,
    /// The format's two error correction bits (M = 0, L = 1, H = 2, Q = 3).
    pub ecc_bits: u16,
    /// The mask pattern, 0–7.
    pub mask: u16,
}

/// Decodes an `n` × `n` module grid, `dark(row, column)`; if it does not read as it is, reads
/// it mirrored (rows and columns swapped). `None` when neither reads.
pub(super) fn decode(n: usize, dark: impl Fn(usize, usize) -> bool) -> Option<Symbol> {
    decode_one(n, &dark).or_else(|| decode_one(n, &|r, c| dark(c, r)))
}

fn decode_one(n: usize, dark: &dyn Fn(usize, usize) -> bool) -> Option<Symbol> {
    if !(21..=177).contains(&n) || !(n - 17).is_multiple_of(4) {
        return None;
    }
    let v = (n - 17) / 4;
    let ver = VERSIONS.get(v - 1)?;
    let format = read_format(n, dark)?;
    let (ecc_bits, mask) = (format >> 3, format & 7);
    let words = read_codewords(n, v, ver, mask, dark)?;
    let data = correct(ver, ecc_bits, &words)?;
    let text = segments(&data, v)?;
    Some(Symbol {
        text,
        version: u8::try_from(v).ok()?,
        ecc_bits,
        mask,
    })
}

/// The 5 format bits (error correction level, mask) from whichever copy is nearer a valid
/// format word (at most 3 bits off: the BCH(15, 5) code's distance is 7).
fn read_format(n: usize, dark: &dyn Fn(usize, usize) -> bool) -> Option<u16> {
    const XS: [usize; 15] = [8, 8, 8, 8, 8, 8, 8, 8, 7, 5, 4, 3, 2, 1, 0];
    const YS: [usize; 15] = [0, 1, 2, 3, 4, 5, 7, 8, 8, 8, 8, 8, 8, 8, 8];
    let mut first = 0u16;
    for i in (0..15).rev() {
        first = (first << 1) | u16::from(dark(YS[i], XS[i]));
    }
    let mut second = 0u16;
    for i in 0..7 {
        second = (second << 1) | u16::from(dark(n - 1 - i, 8));
    }
    for i in 0..8 {
        second = (second << 1) | u16::from(dark(8, n - 8 + i));
    }
    let mut best: Option<(u32, u16)> = None;
    for data in 0..32u16 {
        let word = format_word(data) ^ 0x5412;
        for got in [first, second] {
            let d = (word ^ got).count_ones();
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, data));
            }
        }
    }
    best.filter(|b| b.0 <= 3).map(|b| b.1)
}

/// The 15-bit BCH format word of 5 data bits (before the 0x5412 mask).
fn format_word(data: u16) -> u16 {
    let mut rem = data << 10;
    for bit in (10..15).rev() {
        if rem & (1 << bit) != 0 {
            rem ^= 0x537 << (bit - 10);
        }
    }
    (data << 10) | rem
}

/// Whether module (row, column) is a function module (finder, separator, format, timing,
/// version, alignment): not a data module.
fn reserved(n: usize, v: usize, ver: &Version, r: usize, c: usize) -> bool {
    // The finders with their separators and format areas, and the timing lines.
    let finder = (r < 9 || r + 8 >= n) && c < 9 || r < 9 && c + 8 >= n;
    if finder || r == 6 || c == 6 {
        return true;
    }
    if v >= 7 && ((r < 6 && c + 11 >= n) || (r + 11 >= n && c < 6)) {
        return true;
    }
    let align: &[u8] = {
        let len = ver.align.iter().take_while(|&&a| a != 0).count();
        &ver.align[..len]
    };
    let (Some(&lo), Some(&hi)) = (align.first(), align.last()) else {
        return false;
    };
    let near = |p: usize| align.iter().position(|&a| usize::from(a).abs_diff(p) <= 2);
    match (near(r), near(c)) {
        (Some(i), Some(j)) => {
            let (ar, ac) = (align[i], align[j]);
            // No alignment pattern where a finder is.
            let at_finder = (ar == lo && (ac == lo || ac == hi)) || (ar == hi && ac == lo);
            !at_finder
        }
        _ => false,
    }
}

/// Whether mask pattern `mask` flips module (row `i`, column `j`): the standard's formulas as
/// written.
#[allow(clippy::manual_is_multiple_of)]
fn masked(mask: u16, i: usize, j: usize) -> bool {
    match mask {
        0 => (i + j) % 2 == 0,
        1 => i % 2 == 0,
        2 => j % 3 == 0,
        3 => (i + j) % 3 == 0,
        4 => (i / 2 + j / 3) % 2 == 0,
        5 => (i * j) % 2 + (i * j) % 3 == 0,
        6 => ((i * j) % 2 + (i * j) % 3) % 2 == 0,
        _ => ((i * j) % 3 + (i + j) % 2) % 2 == 0,
    }
}

/// The code words in placement order (two-module columns, right to left, zigzag up and down,
/// skipping the vertical timing column), unmasked.
fn read_codewords(
    n: usize,
    v: usize,
    ver: &Version,
    mask: u16,
    dark: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<u8>> {
    let total = usize::from(ver.codewords);
    let mut words = vec![0u8; total];
    let mut bit = 0usize;
    let mut right = n - 1;
    let mut upward = true;
    while right >= 1 && bit < total * 8 {
        if right == 6 {
            right = 5;
        }
        for k in 0..n {
            let r = if upward { n - 1 - k } else { k };
            for c in [right, right - 1] {
                if bit < total * 8 && !reserved(n, v, ver, r, c) {
                    if dark(r, c) != masked(mask, r, c) {
                        words[bit / 8] |= 0x80 >> (bit % 8);
                    }
                    bit += 1;
                }
            }
        }
        upward = !upward;
        if right < 2 {
            break;
        }
        right -= 2;
    }
    (bit == total * 8).then_some(words)
}

/// De-interleaves the code words into blocks, corrects each, and returns the data code words
/// in order. `None` if a block has more errors than its parity can correct.
fn correct(ver: &Version, ecc_bits: u16, words: &[u8]) -> Option<Vec<u8>> {
    let [bs, dw, ns] = ver.blocks[usize::from(ecc_bits & 3)].map(usize::from);
    let total = usize::from(ver.codewords);
    if bs <= dw || ns == 0 || words.len() != total || total < bs * ns {
        return None;
    }
    let long = (total - bs * ns) / (bs + 1);
    if bs * ns + (bs + 1) * long != total {
        return None;
    }
    let count = ns + long;
    let parity = bs - dw;
    let ecc_at = dw * count + long;
    let mut data = Vec::with_capacity(dw * count + long);
    let mut block = Vec::with_capacity(bs + 1);
    for i in 0..count {
        block.clear();
        for j in 0..dw {
            block.push(*words.get(j * count + i)?);
        }
        // Long blocks' extra data word: after the common columns, long blocks only.
        if i >= ns {
            block.push(*words.get(dw * count + (i - ns))?);
        }
        for j in 0..parity {
            block.push(*words.get(ecc_at + j * count + i)?);
        }
        rs_correct(&mut block, parity)?;
        data.extend_from_slice(&block[..block.len() - parity]);
    }
    Some(data)
}

/// GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1: exp (doubled, so products need no
/// modulo) and log tables.
struct Field {
    exp: [u8; 512],
    log: [u8; 256],
}

const GF: Field = {
    let mut exp = [0u8; 512];
    let mut log = [0u8; 256];
    let mut x: u16 = 1;
    let mut i = 0;
    while i < 255 {
        exp[i] = x as u8;
        log[x as usize] = i as u8;
        x <<= 1;
        if x & 0x100 != 0 {
            x ^= 0x11d;
        }
        i += 1;
    }
    while i < 512 {
        exp[i] = exp[i - 255];
        i += 1;
    }
    Field { exp, log }
};

fn mul(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else {
        GF.exp[usize::from(GF.log[usize::from(a)]) + usize::from(GF.log[usize::from(b)])]
    }
}

/// a / b, b ≠ 0.
fn div(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else {
        GF.exp[usize::from(GF.log[usize::from(a)]) + 255 - usize::from(GF.log[usize::from(b)])]
    }
}

/// α^e.
fn alpha(e: usize) -> u8 {
    GF.exp[e % 255]
}

/// Evaluates a polynomial given lowest degree first at `x`.
fn eval_low_first(p: &[u8], x: u8) -> u8 {
    p.iter().rev().fold(0, |acc, &c| mul(acc, x) ^ c)
}

/// Corrects a Reed–Solomon block (highest-degree code word first, `parity` check words at the
/// end; generator roots α⁰ … α^(parity−1)) in place: syndromes, Berlekamp–Massey, Chien
/// search, Forney. `None` when there are more errors than `parity / 2` or the result does not
/// check.
fn rs_correct(block: &mut [u8], parity: usize) -> Option<()> {
    let len = block.len();
    if parity == 0 || parity > 68 || len > 255 || len <= parity {
        return None;
    }
    let syndromes = |block: &[u8]| -> Vec<u8> {
        (0..parity)
            .map(|i| {
                let x = alpha(i);
                block.iter().fold(0, |acc, &c| mul(acc, x) ^ c)
            })
            .collect()
    };
    let s = syndromes(block);
    if s.iter().all(|&v| v == 0) {
        return Some(());
    }
    // Berlekamp–Massey: the error locator Λ, lowest degree first.
    let mut lambda = vec![0u8; parity + 1];
    let mut prev = vec![0u8; parity + 1];
    lambda[0] = 1;
    prev[0] = 1;
    let (mut l, mut m, mut b) = (0usize, 1usize, 1u8);
    for k in 0..parity {
        let mut d = s[k];
        for i in 1..=l {
            d ^= mul(lambda[i], s[k - i]);
        }
        if d == 0 {
            m += 1;
            continue;
        }
        let coef = div(d, b);
        let before = lambda.clone();
        for i in 0..(parity + 1).saturating_sub(m) {
            lambda[i + m] ^= mul(coef, prev[i]);
        }
        if 2 * l <= k {
            l = k + 1 - l;
            prev = before;
            b = d;
            m = 1;
        } else {
            m += 1;
        }
    }
    if l == 0 || 2 * l > parity {
        return None;
    }
    // Ω = S·Λ mod x^parity.
    let mut omega = vec![0u8; parity];
    for (i, o) in omega.iter_mut().enumerate() {
        for j in 0..=i.min(l) {
            *o ^= mul(lambda[j], s[i - j]);
        }
    }
    // Λ' (formal derivative: odd terms move down one).
    let deriv: Vec<u8> = (1..=l)
        .map(|i| if i % 2 == 1 { lambda[i] } else { 0 })
        .collect();
    let mut found = 0;
    for p in 0..len {
        // Position p counts from the block's end (the x⁰ term); X = α^p, X⁻¹ = α^(255−p).
        let xinv = alpha(255 - p % 255);
        if eval_low_first(&lambda[..=l], xinv) != 0 {
            continue;
        }
        let den = eval_low_first(&deriv, xinv);
        if den == 0 {
            return None;
        }
        // Forney with the first root α⁰: e = X · Ω(X⁻¹) / Λ'(X⁻¹).
        let e = mul(alpha(p), div(eval_low_first(&omega, xinv), den));
        block[len - 1 - p] ^= e;
        found += 1;
    }
    if found != l {
        return None;
    }
    syndromes(block).iter().all(|&v| v == 0).then_some(())
}

/// A big-endian bit reader over the data code words.
struct Bits<'a> {
    data: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn left(&self) -> usize {
        self.data.len() * 8 - self.at
    }

    fn take(&mut self, n: usize) -> Option<u32> {
        if n > 32 || n > self.left() {
            return None;
        }
        let mut v = 0u32;
        for _ in 0..n {
            let byte = self.data[self.at / 8];
            v = (v << 1) | u32::from((byte >> (7 - self.at % 8)) & 1);
            self.at += 1;
        }
        Some(v)
    }
}

/// How a run of bytes is to be read as text.
#[derive(Clone, Copy, PartialEq)]
enum Charset {
    /// No ECI: UTF-8 when valid, else Shift_JIS when valid, else Latin-1.
    Guess,
    Latin1,
    ShiftJis,
    Utf8,
    /// Hanzi segments (read as GBK, GB2312's superset).
    Gb2312,
}

/// The data segments to text. `None` on an unknown mode, a count past the data, or a digit or
/// character value out of its range.
fn segments(data: &[u8], v: usize) -> Option<String> {
    let size = match v {
        1..=9 => 0,
        10..=26 => 1,
        _ => 2,
    };
    let mut bits = Bits { data, at: 0 };
    let mut runs: Vec<(Charset, Vec<u8>)> = Vec::new();
    let mut charset = Charset::Guess;
    let push = |runs: &mut Vec<(Charset, Vec<u8>)>, cs: Charset, bytes: &[u8]| match runs.last_mut()
    {
        Some((c, run)) if *c == cs => run.extend_from_slice(bytes),
        _ => runs.push((cs, bytes.to_vec())),
    };
    while bits.left() >= 4 {
        match bits.take(4)? {
            0 => break,
            1 => {
                let mut count = bits.take([10, 12, 14][size])?;
                let mut out = Vec::new();
                while count > 0 {
                    let (nbits, digits) = match count {
                        1 => (4, 1),
                        2 => (7, 2),
                        _ => (10, 3),
                    };
                    let value = bits.take(nbits)?;
                    if value >= 10u32.pow(digits) {
                        return None;
                    }
                    let s = format!("{value:0width$}", width = digits as usize);
                    out.extend_from_slice(s.as_bytes());
                    count -= digits;
                }
                push(&mut runs, charset, &out);
            }
            2 => {
                const MAP: &[u8; 45] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";
                let mut count = bits.take([9, 11, 13][size])?;
                let mut out = Vec::new();
                while count >= 2 {
                    let value = bits.take(11)? as usize;
                    out.push(*MAP.get(value / 45)?);
                    out.push(*MAP.get(value % 45)?);
                    count -= 2;
                }
                if count == 1 {
                    out.push(*MAP.get(bits.take(6)? as usize)?);
                }
                push(&mut runs, charset, &out);
            }
            4 => {
                let count = bits.take([8, 16, 16][size])? as usize;
                if count * 8 > bits.left() {
                    return None;
                }
                let mut out = Vec::with_capacity(count);
                for _ in 0..count {
                    out.push(u8::try_from(bits.take(8)?).ok()?);
                }
                push(&mut runs, charset, &out);
            }
            8 => {
                let out = double_byte(&mut bits, size, 0xc0, |p| {
                    if p + 0x8140 <= 0x9ffc {
                        p + 0x8140
                    } else {
                        p + 0xc140
                    }
                })?;
                // Without an ECI, with the bytes around it: encoders put UTF-8 byte pairs
                // that fall in the Shift_JIS range into kanji segments.
                let cs = if charset == Charset::Guess {
                    Charset::Guess
                } else {
                    Charset::ShiftJis
                };
                push(&mut runs, cs, &out);
            }
            7 => {
                let first = bits.take(8)?;
                let eci = if first & 0x80 == 0 {
                    first
                } else if first & 0xc0 == 0x80 {
                    ((first & 0x3f) << 8) | bits.take(8)?
                } else if first & 0xe0 == 0xc0 {
                    ((first & 0x1f) << 16) | bits.take(16)?
                } else {
                    return None;
                };
                charset = match eci {
                    1 | 3 => Charset::Latin1,
                    20 => Charset::ShiftJis,
                    26 => Charset::Utf8,
                    _ => Charset::Guess,
                };
            }
            // Hanzi (GB/T 18284): GB2312 in 13-bit pairs, subset 1 the only one defined.
            13 => {
                if bits.take(4)? != 1 {
                    return None;
                }
                let out = double_byte(&mut bits, size, 0x60, |p| {
                    if p < 0xa00 { p + 0xa1a1 } else { p + 0xa6a1 }
                })?;
                push(&mut runs, Charset::Gb2312, &out);
            }
            // Structured append: symbol index, count, parity; this symbol's data follows.
            3 => {
                bits.take(16)?;
            }
            // FNC1 (GS1 in the first position; an application indicator in the second).
            5 => {}
            9 => {
                bits.take(8)?;
            }
            _ => return None,
        }
    }
    let mut text = String::new();
    for (cs, bytes) in runs {
        text.push_str(&to_text(cs, bytes));
    }
    Some(text)
}

/// A kanji or hanzi segment's characters: a count, then 13 bits each, split by `divisor` into
/// the two bytes' offsets and moved into the character set's range by `shift`.
fn double_byte(
    bits: &mut Bits,
    size: usize,
    divisor: u32,
    shift: impl Fn(u32) -> u32,
) -> Option<Vec<u8>> {
    let count = bits.take([8, 10, 12][size])? as usize;
    if count * 13 > bits.left() {
        return None;
    }
    let mut out = Vec::with_capacity(count * 2);
    for _ in 0..count {
        let d = bits.take(13)?;
        let code = shift(((d / divisor) << 8) | (d % divisor));
        out.extend_from_slice(&[(code >> 8) as u8, (code & 0xff) as u8]);
    }
    Some(out)
}

/// Bytes to text by their character set.
fn to_text(cs: Charset, bytes: Vec<u8>) -> String {
    let latin1 = |b: &[u8]| b.iter().map(|&b| char::from(b)).collect::<String>();
    let sjis = |b: &[u8]| {
        let (s, _, bad) = encoding_rs::SHIFT_JIS.decode(b);
        (!bad).then(|| s.into_owned())
    };
    match cs {
        Charset::Latin1 => latin1(&bytes),
        Charset::ShiftJis => sjis(&bytes).unwrap_or_else(|| latin1(&bytes)),
        Charset::Gb2312 => {
            let (s, _, bad) = encoding_rs::GBK.decode(&bytes);
            if bad { latin1(&bytes) } else { s.into_owned() }
        }
        Charset::Utf8 => String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Charset::Guess => match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => {
                let bytes = e.into_bytes();
                sjis(&bytes).unwrap_or_else(|| latin1(&bytes))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qrcode::bits::Bits as QrBits;
    use qrcode::{Color, EcLevel, QrCode, Version as QrVersion};

    fn modules(code: &QrCode) -> (usize, Vec<bool>) {
        let dark = code
            .to_colors()
            .into_iter()
            .map(|c| c == Color::Dark)
            .collect();
        (code.width(), dark)
    }

    fn read(n: usize, m: &[bool]) -> Option<Symbol> {
        decode(n, |r, c| m[r * n + c])
    }

    #[test]
    fn reads_every_version_and_level_and_a_mirrored_code() {
        for v in [1, 2, 4, 7, 10, 15, 27, 40] {
            for level in [EcLevel::L, EcLevel::M, EcLevel::Q, EcLevel::H] {
                let text = if v < 4 {
                    format!("TS1:{v}{level:?}")
                } else {
                    format!("TS1:J:JD{v:02}:2:P テーブル {level:?}")
                };
                let code = QrCode::with_version(&text, QrVersion::Normal(v), level).expect("fits");
                let (n, m) = modules(&code);
                let got = read(n, &m).expect("reads");
                assert_eq!(got.text, text);
                assert_eq!(usize::from(got.version), v as usize);
                let mirrored: Vec<bool> = (0..n * n).map(|i| m[(i % n) * n + i / n]).collect();
                assert_eq!(read(n, &mirrored).map(|s| s.text), Some(text));
            }
        }
    }

    #[test]
    fn corrects_damage_up_to_its_parity_and_refuses_beyond() {
        let text = "https://example.com/ずっと先";
        let code = QrCode::with_version(text, QrVersion::Normal(4), EcLevel::Q).expect("fits");
        let (n, m) = modules(&code);
        let mut rng = 12345u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        // Up to 10 flipped data modules: at most 10 code words wrong, each block of version
        // 4-Q corrects 13.
        for _ in 0..50 {
            let mut damaged = m.clone();
            for _ in 0..10 {
                let i = (next() % (n * n) as u64) as usize;
                if !code.is_functional(i % n, i / n) {
                    damaged[i] = !damaged[i];
                }
            }
            assert_eq!(read(n, &damaged).map(|s| s.text).as_deref(), Some(text));
        }
        // Half the data modules flipped: no read, and never a wrong text.
        for _ in 0..50 {
            let mut damaged = m.clone();
            for (i, d) in damaged.iter_mut().enumerate() {
                if !code.is_functional(i % n, i / n) && next() % 2 == 0 {
                    *d = !*d;
                }
            }
            let got = read(n, &damaged).map(|s| s.text);
            assert!(got.is_none() || got.as_deref() == Some(text), "{got:?}");
        }
    }

    #[test]
    fn reads_numeric_alphanumeric_kanji_and_eci_segments() {
        let mut bits = QrBits::new(QrVersion::Normal(5));
        bits.push_numeric_data(b"0123456789").expect("numeric");
        bits.push_alphanumeric_data(b"TS1:J $%*+-./")
            .expect("alnum");
        // 点 and 茗 in Shift_JIS.
        bits.push_kanji_data(&[0x93, 0x5f, 0xe4, 0xaa])
            .expect("kanji");
        bits.push_eci_designator(26).expect("eci");
        bits.push_byte_data("é".as_bytes()).expect("bytes");
        bits.push_terminator(EcLevel::M).expect("terminator");
        let code = QrCode::with_bits(bits, EcLevel::M).expect("fits");
        let (n, m) = modules(&code);
        assert_eq!(
            read(n, &m).map(|s| s.text).as_deref(),
            Some("0123456789TS1:J $%*+-./点茗é")
        );
    }

    /// Packs (width, value) fields into bytes, big-endian, zero-padded.
    fn pack(fields: &[(usize, u32)]) -> Vec<u8> {
        let mut bits = Vec::new();
        for &(n, v) in fields {
            bits.extend((0..n).rev().map(|i| (v >> i) & 1 == 1));
        }
        bits.chunks(8)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |b, (i, &on)| b | (u8::from(on) << (7 - i)))
            })
            .collect()
    }

    #[test]
    fn reads_hanzi_and_refuses_unknown_modes_and_short_counts() {
        // A byte segment "A:", then hanzi 阿 (GB2312 B0A2: B0A2 − A6A1 = 0A·60h + 01), then the
        // terminator.
        let data = pack(&[
            (4, 4),
            (8, 2),
            (8, u32::from(b'A')),
            (8, u32::from(b':')),
            (4, 13),
            (4, 1),
            (8, 1),
            (13, 0x0a * 0x60 + 0x01),
            (4, 0),
        ]);
        assert_eq!(segments(&data, 2).as_deref(), Some("A:阿"));
        // Mode 6 is no mode; a byte count past the data.
        assert_eq!(segments(&pack(&[(4, 6), (8, 0)]), 2), None);
        assert_eq!(segments(&pack(&[(4, 4), (8, 9), (8, 65)]), 2), None);
        // A numeric group of three digits above 999.
        assert_eq!(segments(&pack(&[(4, 1), (10, 3), (10, 1000)]), 2), None);
    }

    #[test]
    fn a_grid_of_the_wrong_size_or_noise_reads_nothing() {
        assert!(read(20, &[false; 400]).is_none());
        assert!(read(181, &vec![true; 181 * 181]).is_none());
        let mut x = 99u32;
        let noise: Vec<bool> = (0..45 * 45)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                x & 0x4000 != 0
            })
            .collect();
        assert!(read(45, &noise).is_none());
    }
}
