//! The host's side of line mode, without I/O: which lines become rolls, which are repeats, and
//! which losses can be named (see [`crate::text`] for the format and what it can promise).
//!
//! - Every `ROLL` line is one throw; its dice get the link's own consecutive sequence numbers
//!   and one throw id (the first die's).
//! - A line refused (malformed, a value off the die, a failed check, a damaged keyword) is
//!   counted and reported as a loss with its reason, so the players throw again.
//! - Once a tower has sent a checked line, a line without a check is refused: damage must
//!   not turn a checked tower into an unchecked one.
//! - With line counters (`#<n>`): a repeated counter is a duplicate and is dropped; a jump
//!   names the lines that never arrived (a refused line is reported only that way, once, with
//!   the reason it was refused); a counter going back means the tower restarted.

use std::time::Instant;

use crate::text::{LineError, RollLine};

use super::session::Outbox;
use super::{LinkHealth, LossCause, LossReport, Lost, Roll, TowerRef};

/// What the link knows of a printing tower, kept across reconnects.
#[derive(Debug, Default)]
pub(crate) struct LineSession {
    /// Dice delivered so far (the link's own sequence numbers).
    seq: u32,
    /// The newest line counter seen.
    last_counter: Option<u32>,
    /// The tower prints counters: losses are named by the gaps.
    counters: bool,
    /// The tower prints checks: a line without one is refused.
    checks: bool,
    /// Why lines were refused since the last good one (counters: reported with the gap).
    refused: Option<LossCause>,
}

impl LineSession {
    fn loss(health: &mut LinkHealth, out: &mut Outbox, lost: Lost, cause: LossCause, at: Instant) {
        match lost {
            Lost::Seqs { first, last } => health.rolls_lost += u64::from(last - first) + 1,
            Lost::Unknown { .. } => health.losses_unknown += 1,
        }
        let report = LossReport {
            tower: TowerRef::Text,
            lost,
            cause,
            at,
        };
        health.last_loss = Some(report);
        out.losses.push(report);
    }

    fn refused(
        &mut self,
        cause: LossCause,
        now: Instant,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        health.errors.bad_lines += 1;
        self.refused.get_or_insert(cause);
        if !self.counters {
            let after = self.seq;
            Self::loss(health, out, Lost::Unknown { after }, cause, now);
        }
    }

    /// Acts on one line as the decoder read it.
    pub fn line(
        &mut self,
        read: Result<Option<RollLine>, LineError>,
        now: Instant,
        health: &mut LinkHealth,
        out: &mut Outbox,
    ) {
        let line = match read {
            Ok(Some(line)) => line,
            Ok(None) => {
                health.ignored_lines += 1;
                return;
            }
            Err(e) => {
                if matches!(e, LineError::CheckMismatch { .. }) {
                    health.errors.line_checks += 1;
                }
                self.refused(LossCause::Line(e), now, health, out);
                return;
            }
        };
        if line.checked {
            self.checks = true;
        } else if self.checks {
            health.errors.unchecked_lines += 1;
            self.refused(LossCause::UncheckedLine, now, health, out);
            return;
        }
        if let Some(n) = line.counter {
            self.counters = true;
            match self.last_counter {
                Some(last) if n == last => {
                    health.duplicates += 1;
                    return;
                }
                Some(last) if n > last.saturating_add(1) => {
                    let lost = Lost::Seqs {
                        first: last + 1,
                        last: n - 1,
                    };
                    // A refused line among them: say why.
                    let cause = self.refused.unwrap_or(LossCause::LineGap);
                    Self::loss(health, out, lost, cause, now);
                }
                Some(last) if n < last => {
                    health.device_resets += 1;
                    if n > 1 {
                        let lost = Lost::Seqs {
                            first: 1,
                            last: n - 1,
                        };
                        Self::loss(health, out, lost, LossCause::LineGap, now);
                    }
                }
                _ => {}
            }
            self.last_counter = Some(n);
        }
        self.refused = None;
        health.last_frame = Some(now);
        let throw = self.seq.wrapping_add(1);
        for r in line.throw.rolls() {
            self.seq = self.seq.wrapping_add(1);
            health.rolls += 1;
            out.rolls.push(Roll {
                device: TowerRef::Text,
                seq: self.seq,
                throw,
                die: 0,
                sides: r.sides,
                value: r.value,
                received_at: now,
                thrown_at: now,
                offline: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_line;

    struct T {
        s: LineSession,
        h: LinkHealth,
        got: Vec<(u32, u32, u8)>,
        losses: Vec<(Lost, LossCause)>,
    }

    impl T {
        fn new() -> T {
            T {
                s: LineSession::default(),
                h: LinkHealth::default(),
                got: Vec::new(),
                losses: Vec::new(),
            }
        }
        fn feed(&mut self, line: &str) {
            let mut out = Outbox::default();
            self.s.line(
                parse_line(line.as_bytes()),
                Instant::now(),
                &mut self.h,
                &mut out,
            );
            self.got
                .extend(out.rolls.iter().map(|r| (r.seq, r.throw, r.value)));
            self.losses
                .extend(out.losses.iter().map(|l| (l.lost, l.cause)));
        }
    }

    #[test]
    fn plain_lines_each_a_throw_and_refused_lines_are_reported() {
        let mut t = T::new();
        t.feed("booting");
        t.feed("ROLL d6 4");
        t.feed("ROLL 2d6 3 5");
        t.feed("ROLL d6 7");
        assert_eq!(t.got, vec![(1, 1, 4), (2, 2, 3), (3, 2, 5)]);
        assert_eq!(
            t.losses,
            vec![(
                Lost::Unknown { after: 3 },
                LossCause::Line(LineError::ValueOutOfRange { sides: 6, value: 7 })
            )]
        );
        assert_eq!((t.h.ignored_lines, t.h.errors.bad_lines), (1, 1));
    }

    #[test]
    fn counters_drop_repeats_and_name_the_lines_that_never_came() {
        let mut t = T::new();
        t.feed("ROLL d6 1 #4"); // the first line the link hears: earlier ones were before it
        t.feed("ROLL d6 1 #4"); // repeated
        t.feed("ROLL d6 2 #5");
        t.feed("ROLL d6 9 #6"); // refused: named by the gap, once
        t.feed("ROLL d6 3 #8");
        t.feed("ROLL d6 4 #2"); // the tower restarted; #1 of the new run is lost
        assert_eq!(
            t.got.iter().map(|g| g.2).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert_eq!(t.h.duplicates, 1);
        assert_eq!(
            t.losses,
            vec![
                (
                    Lost::Seqs { first: 6, last: 7 },
                    LossCause::Line(LineError::ValueOutOfRange { sides: 6, value: 9 })
                ),
                (Lost::Seqs { first: 1, last: 1 }, LossCause::LineGap),
            ]
        );
        assert_eq!(t.h.device_resets, 1);
        assert_eq!(t.h.rolls_lost, 3);
    }

    #[test]
    fn a_checking_tower_s_unchecked_or_damaged_lines_are_refused() {
        let mut t = T::new();
        t.feed("ROLL d6 4 *C0");
        t.feed("ROLL d6 4");
        t.feed("ROLL d6 5 *C0");
        assert_eq!(t.got, vec![(1, 1, 4)]);
        assert_eq!(t.h.errors.unchecked_lines, 1);
        assert_eq!(t.h.errors.line_checks, 1);
        assert_eq!(t.losses.len(), 2);
        assert_eq!(t.losses[0].1, LossCause::UncheckedLine);
    }
}
