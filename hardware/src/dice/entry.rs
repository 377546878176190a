//! Typed dice entry.

use firmware_bridge::message::MIN_SIDES;

use super::{DiceError, DiceRoll, RollSource};

/// The most dice one typed entry may hold.
pub const MAX_TYPED_DICE: usize = 32;

/// A die written as `d6`, `D20` or `2d6`: (count if written, sides).
fn parse_die(token: &str) -> Option<Result<(Option<usize>, u8), DiceError>> {
    let lower = token.to_ascii_lowercase();
    let (count, sides) = lower.split_once('d')?;
    if !count.chars().all(|c| c.is_ascii_digit())
        || sides.is_empty()
        || !sides.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let count = if count.is_empty() {
        None
    } else {
        match count.parse::<usize>() {
            Ok(n) if (1..=MAX_TYPED_DICE).contains(&n) => Some(n),
            _ => {
                return Some(Err(DiceError::BadCount {
                    token: token.to_owned(),
                }));
            }
        }
    };
    match sides.parse::<u8>() {
        Ok(s) if s >= MIN_SIDES => Some(Ok((count, s))),
        _ => Some(Err(DiceError::BadSides {
            token: token.to_owned(),
        })),
    }
}

/// Parses what a player typed into die results (source [`RollSource::Typed`]).
///
/// Accepted forms (case-insensitive; values separated by spaces or commas):
/// - `d6 4`: one d6 showing 4; `d6 3 5`: two d6s;
/// - `2d6 3 5`: two d6s, exactly two values;
/// - `4` or `3 5`: values only, when `known_sides` (from the prompt being answered) says
///   which die.
///
/// A written die wins over `known_sides`: whether it answers the prompt is the match
/// layer's call, not the parser's.
///
/// # Errors
/// A [`DiceError`] whose message tells the player what is wrong: `d6 7` is
/// [`DiceError::NotAFace`], `x` is [`DiceError::NotUnderstood`], `4` without
/// `known_sides` is [`DiceError::SidesUnknown`], and so on.
///
/// ```
/// use hardware::dice::{parse_entry, DiceError};
/// assert_eq!(parse_entry("2d6 3 5", None).unwrap().len(), 2);
/// assert_eq!(
///     parse_entry("d6 7", None).unwrap_err().to_string(),
///     "7 is not on a d6 (its faces are 1 to 6)"
/// );
/// ```
pub fn parse_entry(input: &str, known_sides: Option<u8>) -> Result<Vec<DiceRoll>, DiceError> {
    let tokens: Vec<&str> = input
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let Some((first, rest)) = tokens.split_first() else {
        return Err(DiceError::Empty);
    };
    let (count, sides, values) = match parse_die(first) {
        Some(die) => {
            let (count, sides) = die?;
            (count, sides, rest)
        }
        None => {
            // Values only: the die must come from the prompt. Check the words first, so
            // `x` says "not understood" rather than "which die?".
            if let Some(bad) = tokens
                .iter()
                .find(|t| !t.chars().all(|c| c.is_ascii_digit()))
            {
                return Err(DiceError::NotUnderstood {
                    token: (*bad).to_owned(),
                });
            }
            let sides = match known_sides {
                Some(s) if s >= MIN_SIDES => s,
                Some(s) => return Err(DiceError::NoSuchDie(s)),
                None => {
                    return Err(DiceError::SidesUnknown {
                        example: (*first).to_owned(),
                    });
                }
            };
            (None, sides, &tokens[..])
        }
    };
    let expected = count.unwrap_or(values.len().max(1));
    if values.len() != expected {
        return Err(DiceError::WrongCount {
            dice: (*first).to_owned(),
            expected,
            found: values.len(),
        });
    }
    if values.len() > MAX_TYPED_DICE {
        return Err(DiceError::BadCount {
            token: input.trim().to_owned(),
        });
    }
    values
        .iter()
        .map(|v| {
            if !v.chars().all(|c| c.is_ascii_digit()) {
                return Err(DiceError::NotUnderstood {
                    token: (*v).to_owned(),
                });
            }
            // All digits: only too long a number fails to parse, and it is no face either.
            let value = v.parse::<u64>().unwrap_or(u64::MAX);
            match u8::try_from(value) {
                Ok(face) if face >= 1 && face <= sides => Ok(DiceRoll {
                    sides,
                    value: face,
                    source: RollSource::Typed,
                }),
                _ => Err(DiceError::NotAFace { value, sides }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(input: &str, known: Option<u8>) -> Result<Vec<(u8, u8)>, DiceError> {
        parse_entry(input, known).map(|rs| rs.iter().map(|r| (r.sides, r.value)).collect())
    }

    #[test]
    fn accepted_forms() {
        assert_eq!(values("d6 4", None), Ok(vec![(6, 4)]));
        assert_eq!(values("D20 20", Some(6)), Ok(vec![(20, 20)]));
        assert_eq!(values("2d6 3 5", None), Ok(vec![(6, 3), (6, 5)]));
        assert_eq!(values("d6 3,5", None), Ok(vec![(6, 3), (6, 5)]));
        assert_eq!(values("  4 ", Some(6)), Ok(vec![(6, 4)]));
        assert_eq!(values("3, 5", Some(6)), Ok(vec![(6, 3), (6, 5)]));
        assert_eq!(values("d100 100", None), Ok(vec![(100, 100)]));
    }

    #[test]
    fn garbage_gets_a_reason() {
        assert_eq!(values("", None), Err(DiceError::Empty));
        assert_eq!(
            values("d6 7", None),
            Err(DiceError::NotAFace { value: 7, sides: 6 })
        );
        assert_eq!(
            values("d6 0", None),
            Err(DiceError::NotAFace { value: 0, sides: 6 })
        );
        assert_eq!(
            values("x", Some(6)),
            Err(DiceError::NotUnderstood { token: "x".into() })
        );
        assert_eq!(
            values("d6 four", None),
            Err(DiceError::NotUnderstood {
                token: "four".into()
            })
        );
        assert_eq!(
            values("4", None),
            Err(DiceError::SidesUnknown {
                example: "4".into()
            })
        );
        assert_eq!(
            values("d1 1", None),
            Err(DiceError::BadSides { token: "d1".into() })
        );
        assert_eq!(
            values("d256 1", None),
            Err(DiceError::BadSides {
                token: "d256".into()
            })
        );
        assert_eq!(
            values("0d6", None),
            Err(DiceError::BadCount {
                token: "0d6".into()
            })
        );
        assert_eq!(
            values("2d6 3", None),
            Err(DiceError::WrongCount {
                dice: "2d6".into(),
                expected: 2,
                found: 1
            })
        );
        assert_eq!(
            values("d6", None),
            Err(DiceError::WrongCount {
                dice: "d6".into(),
                expected: 1,
                found: 0
            })
        );
        assert_eq!(
            values("d6 99999999999999999999999", None),
            Err(DiceError::NotAFace {
                value: u64::MAX,
                sides: 6
            })
        );
    }

    #[test]
    fn messages_read_well() {
        let msg = |input: &str| parse_entry(input, None).unwrap_err().to_string();
        assert_eq!(msg("d6 7"), "7 is not on a d6 (its faces are 1 to 6)");
        assert_eq!(
            msg("x"),
            "`x` is neither a die (like `d6` or `2d6`) nor a number"
        );
        assert_eq!(
            msg("4"),
            "which die? write it before the values, e.g. `d6 4`"
        );
        assert_eq!(msg("2d6 3"), "`2d6` needs 2 value(s), 1 typed");
    }
}
