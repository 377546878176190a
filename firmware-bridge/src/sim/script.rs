//! The simulator's command language: one command per line, used by script files and by the
//! `tower-sim` binary's standard input.
//!
//! ```text
//! # comments and blank lines are skipped
//! d6 4            # one roll: a d6 showing 4 (also `roll d6 4`, `ROLL d6 4`)
//! 2d6 3 5         # two dice of one throw (one throw id, consecutive sequence numbers)
//! d6 3 + d20 17   # a throw of different dice: `+` joins dice groups into one throw
//! roll            # one random roll of a die of the tower's set
//! throw           # one random throw of 1 or 2 dice of the tower's set
//! random 100      # 100 random throws of 1 or 2 dice each
//! started 2       # "dice are falling" (2 dice)
//! sleep 250       # wait 250 ms (scripts only)
//! noise 64        # write 64 random bytes now
//! flip            # flip one bit of the next frame
//! truncate        # cut the next frame short
//! dup             # send the next frame twice
//! drop 500        # unplug for 500 ms (close the pty, reopen it)
//! reset           # reboot: new boot nonce, sequence numbers restart, held rolls are lost
//! heartbeat       # send a heartbeat now
//! ```

use std::time::Duration;

use super::{Command, Injection};

/// One line of a script.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Send this command to the simulated tower.
    Command(Command),
    /// Wait before the next step.
    Sleep(Duration),
}

/// Why a script line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The first word is no command.
    #[error("unknown command `{0}`")]
    Unknown(String),
    /// A command's argument is missing or not a number in range.
    #[error("`{command}` needs {expected}")]
    Argument {
        /// The command.
        command: String,
        /// What it needs.
        expected: &'static str,
    },
    /// A roll that is no die face (`d6 7`), or the wrong number of values.
    #[error("bad roll `{line}`: {reason}")]
    Roll {
        /// The line.
        line: String,
        /// What is wrong.
        reason: &'static str,
    },
}

fn number<T: std::str::FromStr>(
    arg: Option<&str>,
    command: &str,
    expected: &'static str,
) -> Result<T, ScriptError> {
    arg.and_then(|a| a.parse().ok())
        .ok_or_else(|| ScriptError::Argument {
            command: command.to_owned(),
            expected,
        })
}

/// Parses `[N]d<S> v1 .. vN [+ [N]d<S> v1 ..]…` into one command: a single die is a
/// [`Command::Roll`], several dice (of one group or joined by `+`) one [`Command::Throw`].
fn parse_rolls(line: &str, words: &[&str]) -> Result<Command, ScriptError> {
    let bad = |reason| ScriptError::Roll {
        line: line.to_owned(),
        reason,
    };
    let mut dice = Vec::new();
    for group in words.split(|w| *w == "+") {
        let (spec, values) = group.split_first().ok_or(bad("no die"))?;
        let lower = spec.to_ascii_lowercase();
        let (count, sides) = lower
            .split_once('d')
            .ok_or(bad("die must be written d<sides>"))?;
        let count: usize = if count.is_empty() {
            1
        } else {
            count
                .parse()
                .map_err(|_| bad("dice count is not a number"))?
        };
        let sides: u8 = sides
            .parse()
            .ok()
            .filter(|s| *s >= 2)
            .ok_or(bad("sides must be 2..=255"))?;
        if values.len() != count {
            return Err(bad("one value per die is needed"));
        }
        for v in values {
            let value: u8 = v.parse().map_err(|_| bad("value is not a number"))?;
            if value == 0 || value > sides {
                return Err(bad("value is not a face of the die"));
            }
            dice.push((sides, value));
        }
    }
    match dice.as_slice() {
        [] => Err(bad("no die")),
        [(sides, value)] => Ok(Command::Roll {
            sides: *sides,
            value: *value,
        }),
        _ => Ok(Command::Throw(dice)),
    }
}

/// Parses one line into zero or more steps (a comment or blank line gives none).
///
/// # Errors
/// A [`ScriptError`] saying what is wrong with the line.
pub fn parse_line(line: &str) -> Result<Vec<Step>, ScriptError> {
    let code = line.split('#').next().unwrap_or("").trim();
    let words: Vec<&str> = code.split_whitespace().collect();
    let Some((first, rest)) = words.split_first() else {
        return Ok(Vec::new());
    };
    let cmd = first.to_ascii_lowercase();
    let arg = rest.first().copied();
    let one = |c: Command| Ok(vec![Step::Command(c)]);
    match cmd.as_str() {
        "roll" if rest.is_empty() => one(Command::RollRandom),
        "roll" => one(parse_rolls(code, rest)?),
        "throw" => one(Command::ThrowRandom),
        "random" => {
            let n: usize = number(arg, &cmd, "a count")?;
            Ok(vec![Step::Command(Command::ThrowRandom); n])
        }
        "started" => one(Command::RollStarted(number(
            arg.or(Some("0")),
            &cmd,
            "a dice count 0..=255",
        )?)),
        "sleep" => Ok(vec![Step::Sleep(Duration::from_millis(number(
            arg,
            &cmd,
            "milliseconds",
        )?))]),
        "noise" | "garbage" => one(Command::Noise(number(arg, &cmd, "a byte count")?)),
        "flip" => one(Command::Inject(Injection::BitFlip)),
        "truncate" => one(Command::Inject(Injection::Truncate)),
        "dup" | "duplicate" => one(Command::Inject(Injection::Duplicate)),
        "drop" => one(Command::DropLink(Duration::from_millis(number(
            arg,
            &cmd,
            "milliseconds",
        )?))),
        "reset" => one(Command::Reset),
        "heartbeat" => one(Command::Heartbeat),
        _ if cmd.contains('d')
            && cmd
                .chars()
                .next()
                .is_some_and(|c| c == 'd' || c.is_ascii_digit()) =>
        {
            one(parse_rolls(code, &words)?)
        }
        _ => Err(ScriptError::Unknown((*first).to_owned())),
    }
}

/// Parses a whole script.
///
/// # Errors
/// The first bad line, with its 1-based line number.
pub fn parse_script(text: &str) -> Result<Vec<Step>, (usize, ScriptError)> {
    let mut steps = Vec::new();
    for (i, line) in text.lines().enumerate() {
        steps.extend(parse_line(line).map_err(|e| (i + 1, e))?);
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(sides: u8, value: u8) -> Step {
        Step::Command(Command::Roll { sides, value })
    }

    #[test]
    fn parses_every_command() {
        let s = parse_script(
            "# a script\n\nd6 4\n2d6 3 5 # two\nROLL d20 20\nd6 1 + 1d20 2\nroll\nthrow\n\
             random 2\nstarted 2\nsleep 5\nnoise 8\nflip\ntruncate\ndup\ndrop 200\nreset\n\
             heartbeat\n",
        )
        .unwrap();
        assert_eq!(
            s,
            vec![
                roll(6, 4),
                Step::Command(Command::Throw(vec![(6, 3), (6, 5)])),
                roll(20, 20),
                Step::Command(Command::Throw(vec![(6, 1), (20, 2)])),
                Step::Command(Command::RollRandom),
                Step::Command(Command::ThrowRandom),
                Step::Command(Command::ThrowRandom),
                Step::Command(Command::ThrowRandom),
                Step::Command(Command::RollStarted(2)),
                Step::Sleep(Duration::from_millis(5)),
                Step::Command(Command::Noise(8)),
                Step::Command(Command::Inject(Injection::BitFlip)),
                Step::Command(Command::Inject(Injection::Truncate)),
                Step::Command(Command::Inject(Injection::Duplicate)),
                Step::Command(Command::DropLink(Duration::from_millis(200))),
                Step::Command(Command::Reset),
                Step::Command(Command::Heartbeat),
            ]
        );
    }

    #[test]
    fn refuses_bad_lines_with_their_number() {
        assert!(matches!(
            parse_script("d6 4\nd6 7\n"),
            Err((2, ScriptError::Roll { .. }))
        ));
        assert!(matches!(parse_line("2d6 3"), Err(ScriptError::Roll { .. })));
        assert!(matches!(parse_line("d1 1"), Err(ScriptError::Roll { .. })));
        assert!(matches!(
            parse_line("d6 1 +"),
            Err(ScriptError::Roll { .. })
        ));
        assert!(matches!(
            parse_line("sleep x"),
            Err(ScriptError::Argument { .. })
        ));
        assert!(matches!(
            parse_line("explode"),
            Err(ScriptError::Unknown(_))
        ));
    }
}
