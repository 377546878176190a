//! The plain-text line mode, for do-it-yourself towers that can only print.
//!
//! One throw per line, ASCII, ending in `\n` (a `\r` before it is ignored):
//!
//! ```text
//! ROLL d6 4
//! ROLL 2d6 3 5
//! ROLL d20 17 #12 *59
//! ```
//!
//! The keyword and the `d` are case-insensitive, fields are separated by spaces or tabs.
//! `ROLL d6 4` is one die; `ROLL <n>d<sides> v1 … vn` is a throw of `n` dice of the same kind
//! (1 to [`MAX_DICE`], one value each). Each line is one throw: its dice are delivered with
//! consecutive sequence numbers and one throw id, and a line never joins another line's
//! throw. Lines that do not start with `ROLL` (boot banners, debug prints, blank lines) are
//! ignored; a line that starts with `ROLL` (or a word one bit away from it: a damaged
//! keyword) but is malformed is an error, and all of its dice are refused together.
//!
//! Two optional suffixes make a printing tower much safer, and cost an Arduino sketch a few
//! lines (`PROTOCOL.md`, section 9):
//!
//! - `#<n>`: the tower's line counter, 1 for the first `ROLL` line after power-up, +1 per
//!   line. The host drops a line it has seen (a repeat), names the lines it never got (a
//!   gap), and notices a restart (the counter goes back).
//! - `*<hh>`: a check, the CRC-8 ([`LINE_CRC`], CRC-8/SMBUS: polynomial 0x07, initial value
//!   0, no reflection) of every byte of the line before the `*`, without the spaces or tabs
//!   just before it, as two hex digits. A damaged line is refused instead of read as another
//!   face: every single-bit error and every odd number of flipped bits is caught, and all
//!   but 1 in 256 of other damage.
//!
//! **Weaker guarantees than the framed protocol**, because a printing tower only prints:
//! - without a counter, a line lost whole is lost without a trace, and a line received twice
//!   counts twice; with one, both are known (and named) but a lost line is not recovered;
//! - without a check, a damaged digit that still parses (`4` → `6`) is a wrong roll, only
//!   values outside `1..=sides` are caught; with one, such a line is refused (and the
//!   players throw again);
//! - no identity and no boot nonce: two towers cannot be told apart; a reset shows only as a
//!   counter starting again at 1;
//! - no acknowledgement and no resend: rolls printed while the cable is out are lost;
//! - no handshake: such a tower cannot be found by discovery; give the link its port path;
//! - one kind of die per line: a throw of a d6 and a d20 must be printed as two lines, and is
//!   then two throws.

use crc::{CRC_8_SMBUS, Crc};

use crate::message::{MAX_DICE, MIN_SIDES};

/// The longest line accepted, without its newline. Longer lines are refused whole.
pub const MAX_LINE: usize = 64;

/// The check of a line's `*<hh>` suffix: CRC-8/SMBUS (poly 0x07, init 0, no reflection, no
/// final XOR; check value of `123456789` is 0xF4).
pub const LINE_CRC: Crc<u8> = Crc::<u8>::new(&CRC_8_SMBUS);

/// One die read from a text line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextRoll {
    /// The die's number of sides.
    pub sides: u8,
    /// The face that came up, `1..=sides`.
    pub value: u8,
}

/// The dice of one `ROLL` line: one throw of 1 to [`MAX_DICE`] dice of the same sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextThrow {
    sides: u8,
    len: u8,
    values: [u8; MAX_DICE],
}

impl TextThrow {
    /// A throw of one die.
    pub fn single(roll: TextRoll) -> TextThrow {
        let mut values = [0; MAX_DICE];
        values[0] = roll.value;
        TextThrow {
            sides: roll.sides,
            len: 1,
            values,
        }
    }

    /// A throw of `values.len()` dice of `sides` sides. `None` unless there are 1 to
    /// [`MAX_DICE`] values, `sides >= 2` and every value is a face.
    pub fn new(sides: u8, values: &[u8]) -> Option<TextThrow> {
        if values.is_empty()
            || values.len() > MAX_DICE
            || sides < MIN_SIDES
            || values.iter().any(|&v| v == 0 || v > sides)
        {
            return None;
        }
        let mut throw = TextThrow {
            sides,
            len: u8::try_from(values.len()).ok()?,
            values: [0; MAX_DICE],
        };
        throw
            .values
            .get_mut(..values.len())?
            .copy_from_slice(values);
        Some(throw)
    }

    /// The dice's sides.
    pub fn sides(&self) -> u8 {
        self.sides
    }

    /// The faces, one per die, in the order printed.
    pub fn values(&self) -> &[u8] {
        self.values.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// The dice, in the order printed.
    pub fn rolls(&self) -> impl Iterator<Item = TextRoll> + '_ {
        self.values().iter().map(|&value| TextRoll {
            sides: self.sides,
            value,
        })
    }
}

impl core::fmt::Debug for TextThrow {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}d{} {:?}", self.len, self.sides, self.values())
    }
}

/// A `ROLL` line as read: the throw, the tower's line counter if it prints one, and whether
/// the line carried a check (which matched, or the line would have been refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RollLine {
    /// The dice.
    pub throw: TextThrow,
    /// The `#<n>` counter, if printed.
    pub counter: Option<u32>,
    /// Whether a `*<hh>` check was printed (and matched).
    pub checked: bool,
}

impl RollLine {
    /// A line with neither counter nor check.
    pub fn plain(throw: TextThrow) -> RollLine {
        RollLine {
            throw,
            counter: None,
            checked: false,
        }
    }
}

/// Why a `ROLL` line was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum LineError {
    /// The line is longer than [`MAX_LINE`] bytes.
    #[error("line longer than {MAX_LINE} bytes")]
    TooLong,
    /// The first word is one bit away from `ROLL`: a roll line damaged on the way.
    #[error("damaged ROLL keyword")]
    DamagedKeyword,
    /// `ROLL` without a die (`ROLL` alone).
    #[error("ROLL line names no die (expected e.g. `ROLL d6 4`)")]
    MissingDie,
    /// The die is not `d<sides>` or `<n>d<sides>` with sides 2..=255.
    #[error("die must be written d<sides> or <n>d<sides> with 2..=255 sides")]
    BadDie,
    /// A dice count of 0 or more than [`MAX_DICE`].
    #[error("a line throws 1 to {MAX_DICE} dice")]
    BadCount,
    /// Fewer values than dice.
    #[error("ROLL line has fewer values than dice")]
    MissingValue,
    /// The value is not a decimal number.
    #[error("value is not a number")]
    BadValue,
    /// The value is not a face of the die.
    #[error("value {value} is not a face of a d{sides}")]
    ValueOutOfRange {
        /// The die's sides.
        sides: u8,
        /// The value read.
        value: u16,
    },
    /// A `#` counter that is not a decimal number 1..=4294967295.
    #[error("line counter is not a number 1..=4294967295")]
    BadCounter,
    /// A `*` check that is not two hex digits.
    #[error("check must be `*` and two hex digits")]
    BadCheck,
    /// The check does not match the line: it was damaged on the way.
    #[error("check mismatch: line says {received:02X}, its bytes give {computed:02X}")]
    CheckMismatch {
        /// The check printed.
        received: u8,
        /// The CRC-8 of the line's bytes.
        computed: u8,
    },
    /// Something follows the last value (or the counter, or the check).
    #[error("unexpected text after the values")]
    Trailing,
}

fn parse_u32(token: &[u8]) -> Option<u32> {
    if token.is_empty() || token.len() > 10 {
        return None;
    }
    let mut n: u64 = 0;
    for &c in token {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u64::from(c - b'0');
    }
    u32::try_from(n).ok()
}

fn parse_u16(token: &[u8]) -> Option<u16> {
    if token.len() > 5 {
        return None;
    }
    parse_u32(token).and_then(|n| u16::try_from(n).ok())
}

fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

fn one_bit(a: u8, b: u8) -> bool {
    (a ^ b).count_ones() == 1
}

/// Whether a line that does not start with the word `ROLL` is a roll line one bit away from
/// it: a keyword letter flipped (`ROLM d6 4`), or the space after it (`ROLL$d6 4`). Such a
/// line was damaged on the way and must be refused and counted, never ignored as a banner.
fn damaged_keyword(line: &[u8]) -> bool {
    let start = line
        .iter()
        .position(|&c| !is_space(c))
        .unwrap_or(line.len());
    let rest = line.get(start..).unwrap_or(&[]);
    let Some(word) = rest.get(..4) else {
        return false;
    };
    let after = rest.get(4).copied();
    let after_blank = after.is_none_or(is_space);
    let mut off = 0;
    for (&got, want) in word.iter().zip(*b"ROLL") {
        if !got.eq_ignore_ascii_case(&want) {
            if !(one_bit(got, want) || one_bit(got, want.to_ascii_lowercase())) {
                return false;
            }
            off += 1;
        }
    }
    match (off, after) {
        (1, _) => after_blank,
        (0, Some(c)) => one_bit(c, b' '),
        _ => false,
    }
}

fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// Parses one line (without its `\n`). `Ok(None)` for a line that is not a roll.
///
/// # Errors
/// A [`LineError`] for a `ROLL` line that is malformed or fails its check; never panics.
///
/// ```
/// use firmware_bridge::text::{parse_line, TextRoll, TextThrow};
/// let line = parse_line(b"ROLL d6 4").unwrap().unwrap();
/// assert_eq!(line.throw, TextThrow::single(TextRoll { sides: 6, value: 4 }));
/// assert_eq!(parse_line(b"ROLL 2d6 3 5").unwrap().unwrap().throw.values(), &[3, 5]);
/// let checked = parse_line(b"ROLL d20 17 #12 *59").unwrap().unwrap();
/// assert_eq!((checked.counter, checked.checked), (Some(12), true));
/// assert!(parse_line(b"ROLL d20 11 #12 *59").is_err()); // a damaged digit
/// assert_eq!(parse_line(b"booting v1.2"), Ok(None));
/// assert!(parse_line(b"ROLL d6 7").is_err());
/// ```
pub fn parse_line(line: &[u8]) -> Result<Option<RollLine>, LineError> {
    if line.len() > MAX_LINE {
        return Err(LineError::TooLong);
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut tokens = line.split(|&c| is_space(c)).filter(|t| !t.is_empty());
    match tokens.next() {
        Some(word) if word.eq_ignore_ascii_case(b"ROLL") => {}
        _ if damaged_keyword(line) => return Err(LineError::DamagedKeyword),
        _ => return Ok(None),
    }
    let die = tokens.next().ok_or(LineError::MissingDie)?;
    let at = die
        .iter()
        .position(|&c| c == b'd' || c == b'D')
        .ok_or(LineError::BadDie)?;
    let (count, sides) = (
        die.get(..at).unwrap_or(&[]),
        die.get(at + 1..).unwrap_or(&[]),
    );
    let count = if count.is_empty() {
        1
    } else {
        let n = parse_u16(count).ok_or(LineError::BadDie)?;
        if n == 0 || usize::from(n) > MAX_DICE {
            return Err(LineError::BadCount);
        }
        usize::from(n)
    };
    let sides = parse_u16(sides)
        .and_then(|s| u8::try_from(s).ok())
        .filter(|&s| s >= MIN_SIDES)
        .ok_or(LineError::BadDie)?;
    let mut values = [0u8; MAX_DICE];
    let mut out_of_range = None;
    for slot in values.iter_mut().take(count) {
        let token = tokens.next().ok_or(LineError::MissingValue)?;
        let value = parse_u16(token).ok_or(LineError::BadValue)?;
        if value == 0 || value > u16::from(sides) {
            // Reported after the check: a damaged line is "damaged", not "a 7 on a d6".
            out_of_range.get_or_insert(LineError::ValueOutOfRange { sides, value });
        } else {
            *slot = u8::try_from(value).map_err(|_| LineError::ValueOutOfRange { sides, value })?;
        }
    }
    let mut next = tokens.next();
    let mut counter = None;
    if let Some(token) = next
        && let Some(digits) = token.strip_prefix(b"#")
    {
        counter = Some(
            parse_u32(digits)
                .filter(|&n| n > 0)
                .ok_or(LineError::BadCounter)?,
        );
        next = tokens.next();
    }
    let mut checked = false;
    if let Some(token) = next
        && let Some(hex) = token.strip_prefix(b"*")
    {
        let [hi, lo] = hex else {
            return Err(LineError::BadCheck);
        };
        let received = hex_digit(*hi)
            .zip(hex_digit(*lo))
            .map(|(h, l)| h << 4 | l)
            .ok_or(LineError::BadCheck)?;
        // The covered bytes: everything before the `*`, without the blanks just before it.
        let star = line
            .iter()
            .rposition(|&c| c == b'*')
            .ok_or(LineError::BadCheck)?;
        let mut covered = line.get(..star).unwrap_or(&[]);
        while let [rest @ .., last] = covered
            && is_space(*last)
        {
            covered = rest;
        }
        let computed = LINE_CRC.checksum(covered);
        if computed != received {
            return Err(LineError::CheckMismatch { received, computed });
        }
        checked = true;
        next = tokens.next();
    }
    if next.is_some() {
        return Err(LineError::Trailing);
    }
    if let Some(e) = out_of_range {
        return Err(e);
    }
    let values = values.get(..count).ok_or(LineError::BadCount)?;
    let throw = TextThrow::new(sides, values).ok_or(LineError::BadCount)?;
    Ok(Some(RollLine {
        throw,
        counter,
        checked,
    }))
}

/// Writes the line for one die (with its `\n`) into `out`: `ROLL d6 4`. Returns its length,
/// or `None` if `out` is too small (16 bytes always suffice).
pub fn format_line(roll: TextRoll, out: &mut [u8]) -> Option<usize> {
    format_throw(&TextThrow::single(roll), out)
}

/// Writes the line for a throw (with its `\n`) into `out`: `ROLL d6 4` for one die,
/// `ROLL 2d6 3 5` for more. Returns its length, or `None` if `out` is too small or the line
/// would be longer than [`MAX_LINE`] (a receiver would refuse it).
pub fn format_throw(throw: &TextThrow, out: &mut [u8]) -> Option<usize> {
    format_roll_line(&RollLine::plain(*throw), out)
}

/// Writes a `ROLL` line (with its `\n`) into `out`, with the counter (`#<n>`) and the check
/// (`*<hh>`) when `line` has them: `ROLL d20 17 #12 *59`. Returns its length, or `None` if
/// `out` is too small or the line would be longer than [`MAX_LINE`].
pub fn format_roll_line(line: &RollLine, out: &mut [u8]) -> Option<usize> {
    struct Writer<'a> {
        out: &'a mut [u8],
        len: usize,
    }
    impl Writer<'_> {
        fn put(&mut self, bytes: &[u8]) -> Option<()> {
            self.out
                .get_mut(self.len..self.len + bytes.len())?
                .copy_from_slice(bytes);
            self.len += bytes.len();
            Some(())
        }
        fn number(&mut self, n: u32) -> Option<()> {
            let mut digits = [0u8; 10];
            let mut i = digits.len();
            let mut n = n;
            loop {
                i -= 1;
                // `n % 10 < 10` fits a u8.
                *digits.get_mut(i)? = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 || i == 0 {
                    break;
                }
            }
            self.put(digits.get(i..)?)
        }
    }
    let throw = &line.throw;
    let mut w = Writer { out, len: 0 };
    w.put(b"ROLL ")?;
    if throw.len > 1 {
        w.number(u32::from(throw.len))?;
    }
    w.put(b"d")?;
    w.number(u32::from(throw.sides))?;
    for &value in throw.values() {
        w.put(b" ")?;
        w.number(u32::from(value))?;
    }
    if let Some(counter) = line.counter {
        w.put(b" #")?;
        w.number(counter)?;
    }
    if line.checked {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let crc = LINE_CRC.checksum(w.out.get(..w.len)?);
        let hi = *HEX.get(usize::from(crc >> 4))?;
        let lo = *HEX.get(usize::from(crc & 0x0F))?;
        w.put(&[b' ', b'*', hi, lo])?;
    }
    w.put(b"\n")?;
    (w.len <= MAX_LINE + 1).then_some(w.len)
}

/// Splits a byte stream into lines and parses them.
#[derive(Clone)]
pub struct LineDecoder {
    buf: [u8; MAX_LINE],
    len: usize,
    overflowed: bool,
}

impl Default for LineDecoder {
    fn default() -> Self {
        LineDecoder::new()
    }
}

impl LineDecoder {
    /// A decoder at the start of a line.
    pub const fn new() -> LineDecoder {
        LineDecoder {
            buf: [0; MAX_LINE],
            len: 0,
            overflowed: false,
        }
    }

    /// Forgets a partly received line.
    pub fn reset(&mut self) {
        self.len = 0;
        self.overflowed = false;
    }

    /// Takes one byte; returns the outcome when it ends a line (`Ok(None)`: not a roll).
    pub fn push(&mut self, byte: u8) -> Option<Result<Option<RollLine>, LineError>> {
        if byte != b'\n' {
            match self.buf.get_mut(self.len) {
                Some(slot) if !self.overflowed => {
                    *slot = byte;
                    self.len += 1;
                }
                _ => self.overflowed = true,
            }
            return None;
        }
        let (len, overflowed) = (self.len, self.overflowed);
        self.reset();
        if overflowed {
            return Some(Err(LineError::TooLong));
        }
        Some(parse_line(self.buf.get(..len)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(sides: u8, value: u8) -> Result<Option<RollLine>, LineError> {
        Ok(Some(RollLine::plain(TextThrow::single(TextRoll {
            sides,
            value,
        }))))
    }

    fn throw_of(line: &[u8]) -> TextThrow {
        parse_line(line).unwrap().unwrap().throw
    }

    #[test]
    fn accepts_the_documented_forms() {
        let r = one;
        assert_eq!(parse_line(b"ROLL d6 4"), r(6, 4));
        assert_eq!(parse_line(b"roll D20 20\r"), r(20, 20));
        assert_eq!(parse_line(b"  ROLL\td100   1 "), r(100, 1));
        assert_eq!(parse_line(b"ROLL d255 255"), r(255, 255));
        assert_eq!(parse_line(b"ROLL 1d6 4"), r(6, 4));
        assert_eq!(
            throw_of(b"ROLL 2d6 3 5"),
            TextThrow::new(6, &[3, 5]).unwrap()
        );
        assert_eq!(
            throw_of(b"roll 16D6 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4"),
            TextThrow::new(6, &[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4]).unwrap()
        );
        assert_eq!(parse_line(b""), Ok(None));
        assert_eq!(parse_line(b"ROLLING d6 4"), Ok(None));
        assert_eq!(parse_line(b"hello"), Ok(None));
    }

    #[test]
    fn refuses_malformed_roll_lines() {
        assert_eq!(parse_line(b"ROLL"), Err(LineError::MissingDie));
        assert_eq!(parse_line(b"ROLL 6 4"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL d1 1"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL d256 1"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL xd6 1"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL 0d6"), Err(LineError::BadCount));
        assert_eq!(parse_line(b"ROLL 17d6 1"), Err(LineError::BadCount));
        assert_eq!(parse_line(b"ROLL d6"), Err(LineError::MissingValue));
        assert_eq!(parse_line(b"ROLL 2d6 3"), Err(LineError::MissingValue));
        assert_eq!(parse_line(b"ROLL d6 x"), Err(LineError::BadValue));
        assert_eq!(parse_line(b"ROLL d6 -1"), Err(LineError::BadValue));
        assert_eq!(
            parse_line(b"ROLL d6 7"),
            Err(LineError::ValueOutOfRange { sides: 6, value: 7 })
        );
        assert_eq!(
            parse_line(b"ROLL 2d6 3 7"),
            Err(LineError::ValueOutOfRange { sides: 6, value: 7 })
        );
        assert_eq!(
            parse_line(b"ROLL d6 0"),
            Err(LineError::ValueOutOfRange { sides: 6, value: 0 })
        );
        assert_eq!(parse_line(b"ROLL d6 4 5"), Err(LineError::Trailing));
        assert_eq!(parse_line(b"ROLL 2d6 4 5 6"), Err(LineError::Trailing));
        assert_eq!(parse_line(&[b'x'; 65]), Err(LineError::TooLong));
        assert_eq!(parse_line(b"ROLL d6 4 #0"), Err(LineError::BadCounter));
        assert_eq!(parse_line(b"ROLL d6 4 #x"), Err(LineError::BadCounter));
        assert_eq!(
            parse_line(b"ROLL d6 4 #4294967296"),
            Err(LineError::BadCounter)
        );
        assert_eq!(parse_line(b"ROLL d6 4 *C"), Err(LineError::BadCheck));
        assert_eq!(parse_line(b"ROLL d6 4 *CG"), Err(LineError::BadCheck));
        assert_eq!(parse_line(b"ROLL d6 4 *C0 x"), Err(LineError::Trailing));
        assert_eq!(parse_line(b"ROLL d6 4 *C0 #1"), Err(LineError::Trailing));
        // A damaged keyword is a damaged roll line, not a banner.
        assert_eq!(parse_line(b"RoLM d6 4"), Err(LineError::DamagedKeyword));
        assert_eq!(parse_line(b"ZOLL d6 4"), Err(LineError::DamagedKeyword));
        assert_eq!(parse_line(b"ROLL$d6 4"), Err(LineError::DamagedKeyword));
        assert_eq!(parse_line(b"ROLX d6 4"), Ok(None), "more than one bit away");
        assert_eq!(parse_line(b"ROLLING d6 4"), Ok(None));
        assert_eq!(parse_line(b"ROLM"), Err(LineError::DamagedKeyword));
    }

    #[test]
    fn checks_and_counters() {
        // CRC-8/SMBUS check value.
        assert_eq!(LINE_CRC.checksum(b"123456789"), 0xF4);
        let l = parse_line(b"ROLL d6 4 *C0").unwrap().unwrap();
        assert_eq!(
            (l.throw.values(), l.counter, l.checked),
            (&[4u8][..], None, true)
        );
        assert!(parse_line(b"ROLL d6 4 *c0").unwrap().unwrap().checked);
        let l = parse_line(b"ROLL d6 4 #1 *C8\r").unwrap().unwrap();
        assert_eq!((l.counter, l.checked), (Some(1), true));
        let l = parse_line(b"ROLL 2d6 3 5 #7").unwrap().unwrap();
        assert_eq!((l.counter, l.checked), (Some(7), false));
        assert_eq!(
            parse_line(b"ROLL d6 5 *C0"),
            Err(LineError::CheckMismatch {
                received: 0xC0,
                computed: LINE_CRC.checksum(b"ROLL d6 5")
            })
        );
        // A damaged line is "damaged", even when the damage made a value off the die.
        assert!(matches!(
            parse_line(b"ROLL d6 8 *C0"),
            Err(LineError::CheckMismatch { .. })
        ));
        // The blanks before the `*` are not covered.
        assert!(parse_line(b"ROLL d6 4 \t *C0").unwrap().unwrap().checked);
    }

    #[test]
    fn every_single_bit_flip_of_a_checked_line_is_refused_or_harmless() {
        let mut out = [0u8; 80];
        for sides in [2u8, 6, 20, 100] {
            for value in 1..=sides.min(12) {
                let line = RollLine {
                    throw: TextThrow::single(TextRoll { sides, value }),
                    counter: Some(u32::from(value) * 7),
                    checked: true,
                };
                let n = format_roll_line(&line, &mut out).unwrap();
                let text = &out[..n - 1];
                assert_eq!(parse_line(text), Ok(Some(line)));
                for i in 0..text.len() {
                    for bit in 0..8 {
                        let mut d = text.to_vec();
                        d[i] ^= 1 << bit;
                        match parse_line(&d) {
                            // Only a flip that changes nothing the check covers: the case
                            // of a keyword letter, or a blank that stays a blank.
                            Ok(Some(got)) => {
                                assert_eq!(got, line, "{:?}", String::from_utf8_lossy(&d))
                            }
                            Ok(None) => panic!(
                                "damage made a non-roll line: {:?}",
                                String::from_utf8_lossy(&d)
                            ),
                            Err(_) => {}
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn format_then_parse() {
        for sides in MIN_SIDES..=255 {
            for value in [1, sides / 2 + 1, sides] {
                let roll = TextRoll { sides, value };
                let mut out = [0u8; 16];
                let n = format_line(roll, &mut out).unwrap();
                assert_eq!(out[n - 1], b'\n');
                assert_eq!(parse_line(&out[..n - 1]), one(sides, value));
                let mut out = [0u8; 40];
                for counter in [None, Some(1), Some(u32::MAX)] {
                    for checked in [false, true] {
                        let line = RollLine {
                            throw: TextThrow::single(roll),
                            counter,
                            checked,
                        };
                        let n = format_roll_line(&line, &mut out).unwrap();
                        assert_eq!(parse_line(&out[..n - 1]), Ok(Some(line)));
                    }
                }
            }
            for count in 2..=MAX_DICE {
                let values: Vec<u8> = (0..count).map(|i| (i as u8 % sides) + 1).collect();
                let throw = TextThrow::new(sides, &values).unwrap();
                let mut out = [0u8; 128];
                match format_throw(&throw, &mut out) {
                    Some(n) => {
                        assert_eq!(&out[..5], b"ROLL ");
                        assert_eq!(parse_line(&out[..n - 1]), Ok(Some(RollLine::plain(throw))));
                    }
                    // Only a throw whose line would be too long is not written.
                    None => {
                        let faces: Vec<String> = values.iter().map(u8::to_string).collect();
                        let line = format!("ROLL {count}d{sides} {}", faces.join(" "));
                        assert!(line.len() > MAX_LINE, "{throw:?}");
                    }
                }
            }
        }
        assert_eq!(
            format_line(TextRoll { sides: 6, value: 4 }, &mut [0u8; 4]),
            None
        );
        let mut out = [0u8; 16];
        let n = format_throw(&TextThrow::new(6, &[3, 5]).unwrap(), &mut out).unwrap();
        assert_eq!(&out[..n], b"ROLL 2d6 3 5\n");
        let mut out = [0u8; 32];
        let line = RollLine {
            throw: TextThrow::single(TextRoll {
                sides: 20,
                value: 17,
            }),
            counter: Some(12),
            checked: true,
        };
        let n = format_roll_line(&line, &mut out).unwrap();
        assert_eq!(&out[..n], b"ROLL d20 17 #12 *59\n");
    }

    #[test]
    fn decoder_splits_lines_and_survives_long_ones() {
        let mut d = LineDecoder::new();
        let mut out = Vec::new();
        let mut stream = b"boot\nROLL d6 4\r\n".to_vec();
        stream.extend_from_slice(&[b'z'; 200]);
        stream.extend_from_slice(b"\nROLL d8 8\nROLL 2d6 1 6\n");
        for b in stream {
            if let Some(r) = d.push(b) {
                out.push(r);
            }
        }
        assert_eq!(
            out,
            vec![
                Ok(None),
                one(6, 4),
                Err(LineError::TooLong),
                one(8, 8),
                Ok(Some(RollLine::plain(TextThrow::new(6, &[1, 6]).unwrap()))),
            ]
        );
    }
}
