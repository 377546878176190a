//! The plain-text line mode, for do-it-yourself towers that can only print.
//!
//! One throw per line, ASCII, ending in `\n` (a `\r` before it is ignored):
//!
//! ```text
//! ROLL d6 4
//! ROLL d20 17
//! ROLL 2d6 3 5
//! ```
//!
//! The keyword and the `d` are case-insensitive, fields are separated by spaces or tabs.
//! `ROLL d6 4` is one die; `ROLL <n>d<sides> v1 … vn` is a throw of `n` dice of the same kind
//! (1 to [`MAX_DICE`], one value each). Each line is one throw: its dice are delivered with
//! consecutive sequence numbers and one throw id, and a line never joins another line's
//! throw. Lines that do not start with `ROLL` (boot banners, debug prints, blank lines) are
//! ignored; a line that starts with `ROLL` but is malformed is an error, and all of its dice
//! are refused together.
//!
//! **Weaker guarantees than the framed protocol**, because a printing tower sends nothing but
//! these lines:
//! - no sequence numbers: a line lost to noise is lost silently, and a line printed twice is
//!   counted twice (neither can be detected);
//! - no checksum: a damaged digit that still parses (`4` → `6`) is a wrong roll, only values
//!   outside `1..=sides` are caught;
//! - no identity and no boot nonce: two towers cannot be told apart and a reset goes
//!   unnoticed;
//! - no acknowledgement and no resend: rolls printed while the cable is out are lost;
//! - no handshake: such a tower cannot be found by discovery; give the link its port path;
//! - one kind of die per line: a throw of a d6 and a d20 must be printed as two lines, and is
//!   then two throws.

use crate::message::{MAX_DICE, MIN_SIDES};

/// The longest line accepted, without its newline. Longer lines are refused whole.
pub const MAX_LINE: usize = 64;

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

/// Why a `ROLL` line was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum LineError {
    /// The line is longer than [`MAX_LINE`] bytes.
    #[error("line longer than {MAX_LINE} bytes")]
    TooLong,
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
    /// Something follows the last value.
    #[error("unexpected text after the values")]
    Trailing,
}

fn parse_u16(token: &[u8]) -> Option<u16> {
    if token.is_empty() || token.len() > 5 {
        return None;
    }
    let mut n: u32 = 0;
    for &c in token {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(c - b'0');
    }
    u16::try_from(n).ok()
}

/// Parses one line (without its `\n`). `Ok(None)` for a line that is not a roll.
///
/// # Errors
/// A [`LineError`] for a `ROLL` line that is malformed; never panics.
///
/// ```
/// use firmware_bridge::text::{parse_line, TextRoll, TextThrow};
/// assert_eq!(parse_line(b"ROLL d6 4"), Ok(Some(TextThrow::single(TextRoll { sides: 6, value: 4 }))));
/// assert_eq!(parse_line(b"ROLL 2d6 3 5").unwrap().unwrap().values(), &[3, 5]);
/// assert_eq!(parse_line(b"booting v1.2"), Ok(None));
/// assert!(parse_line(b"ROLL d6 7").is_err());
/// ```
pub fn parse_line(line: &[u8]) -> Result<Option<TextThrow>, LineError> {
    if line.len() > MAX_LINE {
        return Err(LineError::TooLong);
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let mut tokens = line
        .split(|&c| c == b' ' || c == b'\t')
        .filter(|t| !t.is_empty());
    match tokens.next() {
        Some(word) if word.eq_ignore_ascii_case(b"ROLL") => {}
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
    for slot in values.iter_mut().take(count) {
        let value =
            parse_u16(tokens.next().ok_or(LineError::MissingValue)?).ok_or(LineError::BadValue)?;
        if value == 0 || value > u16::from(sides) {
            return Err(LineError::ValueOutOfRange { sides, value });
        }
        *slot = u8::try_from(value).map_err(|_| LineError::ValueOutOfRange { sides, value })?;
    }
    if tokens.next().is_some() {
        return Err(LineError::Trailing);
    }
    let values = values.get(..count).ok_or(LineError::BadCount)?;
    TextThrow::new(sides, values)
        .map(Some)
        .ok_or(LineError::BadCount)
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
    let mut len = 0;
    let mut put = |bytes: &[u8]| -> Option<()> {
        out.get_mut(len..len + bytes.len())?.copy_from_slice(bytes);
        len += bytes.len();
        Some(())
    };
    let number = |n: u8, digits: &mut [u8; 3]| -> usize {
        let mut i = 3;
        let mut n = n;
        loop {
            i -= 1;
            digits[i] = b'0' + n % 10;
            n /= 10;
            if n == 0 || i == 0 {
                return i;
            }
        }
    };
    let mut digits = [0u8; 3];
    put(b"ROLL ")?;
    if throw.len > 1 {
        let start = number(throw.len, &mut digits);
        put(digits.get(start..)?)?;
    }
    put(b"d")?;
    let start = number(throw.sides, &mut digits);
    put(digits.get(start..)?)?;
    for &value in throw.values() {
        put(b" ")?;
        let start = number(value, &mut digits);
        put(digits.get(start..)?)?;
    }
    put(b"\n")?;
    (len <= MAX_LINE + 1).then_some(len)
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
    pub fn push(&mut self, byte: u8) -> Option<Result<Option<TextThrow>, LineError>> {
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

    fn one(sides: u8, value: u8) -> Result<Option<TextThrow>, LineError> {
        Ok(Some(TextThrow::single(TextRoll { sides, value })))
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
            parse_line(b"ROLL 2d6 3 5"),
            Ok(Some(TextThrow::new(6, &[3, 5]).unwrap()))
        );
        assert_eq!(
            parse_line(b"roll 16D6 1 2 3 4 5 6 1 2 3 4 5 6 1 2 3 4"),
            Ok(Some(
                TextThrow::new(6, &[1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4]).unwrap()
            ))
        );
        assert_eq!(parse_line(b""), Ok(None));
        assert_eq!(parse_line(b"ROLLING d6 4"), Ok(None));
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
    }

    #[test]
    fn format_then_parse() {
        for sides in MIN_SIDES..=255 {
            for value in [1, sides / 2 + 1, sides] {
                let roll = TextRoll { sides, value };
                let mut out = [0u8; 16];
                let n = format_line(roll, &mut out).unwrap();
                assert_eq!(out[n - 1], b'\n');
                assert_eq!(parse_line(&out[..n - 1]), Ok(Some(TextThrow::single(roll))));
            }
            for count in 2..=MAX_DICE {
                let values: Vec<u8> = (0..count).map(|i| (i as u8 % sides) + 1).collect();
                let throw = TextThrow::new(sides, &values).unwrap();
                let mut out = [0u8; 128];
                match format_throw(&throw, &mut out) {
                    Some(n) => {
                        assert_eq!(&out[..5], b"ROLL ");
                        assert_eq!(parse_line(&out[..n - 1]), Ok(Some(throw)));
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
                Ok(Some(TextThrow::new(6, &[1, 6]).unwrap())),
            ]
        );
    }
}
