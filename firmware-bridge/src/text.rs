//! The plain-text line mode, for do-it-yourself towers that can only print.
//!
//! One roll per line, ASCII, ending in `\n` (a `\r` before it is ignored):
//!
//! ```text
//! ROLL d6 4
//! ROLL d20 17
//! ```
//!
//! The keyword and the `d` are case-insensitive, fields are separated by spaces or tabs.
//! Lines that do not start with `ROLL` (boot banners, debug prints, blank lines) are ignored;
//! a line that starts with `ROLL` but is malformed is an error.
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
//! - no handshake: such a tower cannot be found by discovery; give the link its port path.

use crate::message::MIN_SIDES;

/// The longest line accepted, without its newline. Longer lines are refused whole.
pub const MAX_LINE: usize = 64;

/// One roll read from a text line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextRoll {
    /// The die's number of sides.
    pub sides: u8,
    /// The face that came up, `1..=sides`.
    pub value: u8,
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
    /// The die is not `d<sides>` with sides 2..=255.
    #[error("die must be written d<sides> with 2..=255 sides")]
    BadDie,
    /// No value after the die.
    #[error("ROLL line has no value after the die")]
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
    /// Something follows the value.
    #[error("unexpected text after the value")]
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
/// use firmware_bridge::text::{parse_line, TextRoll};
/// assert_eq!(parse_line(b"ROLL d6 4"), Ok(Some(TextRoll { sides: 6, value: 4 })));
/// assert_eq!(parse_line(b"booting v1.2"), Ok(None));
/// assert!(parse_line(b"ROLL d6 7").is_err());
/// ```
pub fn parse_line(line: &[u8]) -> Result<Option<TextRoll>, LineError> {
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
    let sides = match die {
        [b'd' | b'D', digits @ ..] => parse_u16(digits)
            .and_then(|s| u8::try_from(s).ok())
            .filter(|&s| s >= MIN_SIDES)
            .ok_or(LineError::BadDie)?,
        _ => return Err(LineError::BadDie),
    };
    let value =
        parse_u16(tokens.next().ok_or(LineError::MissingValue)?).ok_or(LineError::BadValue)?;
    if value == 0 || value > u16::from(sides) {
        return Err(LineError::ValueOutOfRange { sides, value });
    }
    if tokens.next().is_some() {
        return Err(LineError::Trailing);
    }
    let value = u8::try_from(value).map_err(|_| LineError::ValueOutOfRange { sides, value })?;
    Ok(Some(TextRoll { sides, value }))
}

/// Writes the line for `roll` (with its `\n`) into `out`; returns its length, or `None`
/// if `out` is too small (16 bytes always suffice).
pub fn format_line(roll: TextRoll, out: &mut [u8]) -> Option<usize> {
    let mut len = 0;
    let mut put = |bytes: &[u8]| -> Option<()> {
        out.get_mut(len..len + bytes.len())?.copy_from_slice(bytes);
        len += bytes.len();
        Some(())
    };
    let mut digits = [0u8; 3];
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
    put(b"ROLL d")?;
    let start = number(roll.sides, &mut digits);
    put(digits.get(start..)?)?;
    put(b" ")?;
    let start = number(roll.value, &mut digits);
    put(digits.get(start..)?)?;
    put(b"\n")?;
    Some(len)
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
    pub fn push(&mut self, byte: u8) -> Option<Result<Option<TextRoll>, LineError>> {
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

    #[test]
    fn accepts_the_documented_forms() {
        let r = |sides, value| Ok(Some(TextRoll { sides, value }));
        assert_eq!(parse_line(b"ROLL d6 4"), r(6, 4));
        assert_eq!(parse_line(b"roll D20 20\r"), r(20, 20));
        assert_eq!(parse_line(b"  ROLL\td100   1 "), r(100, 1));
        assert_eq!(parse_line(b"ROLL d255 255"), r(255, 255));
        assert_eq!(parse_line(b""), Ok(None));
        assert_eq!(parse_line(b"ROLLING d6 4"), Ok(None));
    }

    #[test]
    fn refuses_malformed_roll_lines() {
        assert_eq!(parse_line(b"ROLL"), Err(LineError::MissingDie));
        assert_eq!(parse_line(b"ROLL 6 4"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL d1 1"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL d256 1"), Err(LineError::BadDie));
        assert_eq!(parse_line(b"ROLL d6"), Err(LineError::MissingValue));
        assert_eq!(parse_line(b"ROLL d6 x"), Err(LineError::BadValue));
        assert_eq!(parse_line(b"ROLL d6 -1"), Err(LineError::BadValue));
        assert_eq!(
            parse_line(b"ROLL d6 7"),
            Err(LineError::ValueOutOfRange { sides: 6, value: 7 })
        );
        assert_eq!(
            parse_line(b"ROLL d6 0"),
            Err(LineError::ValueOutOfRange { sides: 6, value: 0 })
        );
        assert_eq!(parse_line(b"ROLL d6 4 5"), Err(LineError::Trailing));
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
                assert_eq!(parse_line(&out[..n - 1]), Ok(Some(roll)));
            }
        }
        assert_eq!(
            format_line(TextRoll { sides: 6, value: 4 }, &mut [0u8; 4]),
            None
        );
    }

    #[test]
    fn decoder_splits_lines_and_survives_long_ones() {
        let mut d = LineDecoder::new();
        let mut out = Vec::new();
        let mut stream = b"boot\nROLL d6 4\r\n".to_vec();
        stream.extend_from_slice(&[b'z'; 200]);
        stream.extend_from_slice(b"\nROLL d8 8\n");
        for b in stream {
            if let Some(r) = d.push(b) {
                out.push(r);
            }
        }
        assert_eq!(
            out,
            vec![
                Ok(None),
                Ok(Some(TextRoll { sides: 6, value: 4 })),
                Err(LineError::TooLong),
                Ok(Some(TextRoll { sides: 8, value: 8 })),
            ]
        );
    }
}
