//! The tower's side of the protocol as a sans-I/O state machine: the reference behaviour for
//! firmware, and the heart of [`crate::sim`].
//!
//! It touches no port and reads no clock: the firmware calls [`Tower::throw`] when the dice
//! of a throw have settled (or [`Tower::roll`] for a die thrown alone), [`Tower::heartbeat`]
//! once a second, feeds every received byte to [`Tower::receive`], and writes every message
//! it is handed with [`crate::frame::encode`]. Calls that record or resend rolls take the
//! firmware's millisecond counter (`millis()`, wrapping), so a roll sent again says how old
//! it is. It needs no allocator; `H` is how many unacknowledged rolls it can hold (32 is
//! plenty for a real tower: the host acknowledges within milliseconds), and
//! [`Tower::with_history_limit`] holds fewer.
//!
//! A tower that keeps its boot id and last sequence number in non-volatile memory starts each
//! boot with [`Tower::following`], so its hello tells the host exactly which rolls the reset
//! took away (`PROTOCOL.md`, section 5).
//!
//! ```
//! use firmware_bridge::message::*;
//! use firmware_bridge::tower::{Settled, Tower};
//!
//! let mut tower = Tower::<32>::new(
//!     DeviceId(7), BootId(0x1234), FirmwareVersion { major: 1, minor: 0, patch: 0 },
//!     DiceSet::new(&[6, 6]).unwrap(),
//! ).unwrap();
//! let sent = tower.roll(0, 6, 4, 1_000).unwrap();
//! assert!(matches!(sent.result, DeviceMessage::RollResult(RollResult { seq: 1, throw: 1, value: 4, .. })));
//! assert_eq!(tower.held(), 1);
//! // Two dice thrown together: seqs 2 and 3, both of throw 2.
//! let mut out = Vec::new();
//! let dice = [Settled { die: 0, sides: 6, value: 3 }, Settled { die: 1, sides: 6, value: 5 }];
//! assert_eq!(tower.throw(&dice, 1_500, &mut |m| out.push(m)), Ok(2));
//! assert!(matches!(out[1], DeviceMessage::RollResult(RollResult { seq: 3, throw: 2, .. })));
//! // Asked again 2 s later, a roll says how old it is.
//! out.clear();
//! tower.handle(HostMessage::ResendSince(ResendSince { boot: BootId(0x1234), seq: 2 }), 3_500, &mut |m| out.push(m));
//! assert!(matches!(out[0], DeviceMessage::RollResult(RollResult { seq: 3, age_ms: 2_000, .. })));
//! tower.handle(HostMessage::Ack(Ack { boot: BootId(0x1234), seq: 3 }), 3_500, &mut |m| out.push(m));
//! assert_eq!(tower.held(), 0);
//! ```

use crate::frame::FrameDecoder;
use crate::message::{
    BootId, DeviceId, DeviceMessage, DiceSet, Fault, FaultCode, FirmwareVersion, Heartbeat, Hello,
    HostMessage, InvalidField, PROTOCOL_VERSION, RollResult, RollStarted,
};

/// The most rolls a tower sends in answer to one `ResendSince`: the host asks again for the
/// rest once these arrived, so a long backlog never floods a slow or noisy line.
pub const RESEND_BURST: usize = 32;

/// One die of a throw, as the firmware read it (see [`Tower::throw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settled {
    /// The die's index in the tower's [`DiceSet`] (0 if unknown).
    pub die: u8,
    /// The die's number of sides.
    pub sides: u8,
    /// The face that came up, `1..=sides`.
    pub value: u8,
}

/// What [`Tower::roll`] asks the firmware to send, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// A [`FaultCode::HistoryOverflow`] fault if the history was full and the oldest
    /// unacknowledged roll was discarded to make room.
    pub overflow: Option<DeviceMessage>,
    /// The [`DeviceMessage::RollResult`] for the new roll.
    pub result: DeviceMessage,
}

/// A held roll and the firmware's clock when it settled.
#[derive(Clone, Copy)]
struct Held {
    roll: RollResult,
    thrown_ms: u32,
}

/// A tower's protocol state: identity, sequence counter and the unacknowledged rolls.
#[derive(Clone)]
pub struct Tower<const H: usize> {
    device: DeviceId,
    boot: BootId,
    firmware: FirmwareVersion,
    dice: DiceSet,
    prev_boot: BootId,
    prev_last_seq: u32,
    last_seq: u32,
    /// Ring of held rolls: seqs `last_seq - count + 1 ..= last_seq`, oldest at `head`.
    held: [Held; H],
    head: usize,
    count: usize,
    /// How many rolls are held at most (`<= H`).
    limit: usize,
    rx: FrameDecoder,
    rx_errors: u32,
}

impl<const H: usize> Tower<H> {
    /// A tower just powered up that remembers nothing of an earlier boot: no rolls yet.
    /// `boot` must be fresh randomness at every power-up or reset.
    ///
    /// # Errors
    /// [`InvalidField::ZeroDevice`] or [`InvalidField::ZeroBoot`] for the reserved zeros.
    pub fn new(
        device: DeviceId,
        boot: BootId,
        firmware: FirmwareVersion,
        dice: DiceSet,
    ) -> Result<Tower<H>, InvalidField> {
        if device.0 == 0 {
            return Err(InvalidField::ZeroDevice);
        }
        if boot.0 == 0 {
            return Err(InvalidField::ZeroBoot);
        }
        let blank = Held {
            roll: RollResult {
                boot,
                seq: 0,
                throw: 0,
                die: 0,
                sides: 0,
                value: 0,
                age_ms: 0,
            },
            thrown_ms: 0,
        };
        Ok(Tower {
            device,
            boot,
            firmware,
            dice,
            prev_boot: BootId(0),
            prev_last_seq: 0,
            last_seq: 0,
            held: [blank; H],
            head: 0,
            count: 0,
            limit: H,
            rx: FrameDecoder::new(),
            rx_errors: 0,
        })
    }

    /// The same tower, booted after `prev_boot` whose last roll was `prev_last_seq`, as read
    /// from non-volatile memory: its hello names them, so the host learns exactly which
    /// rolls of the previous boot it will never get.
    ///
    /// # Errors
    /// [`InvalidField::PrevBoot`] if `prev_boot` is this boot, or is 0 with a last roll.
    pub fn following(
        mut self,
        prev_boot: BootId,
        prev_last_seq: u32,
    ) -> Result<Tower<H>, InvalidField> {
        if prev_boot == self.boot || (prev_boot.0 == 0 && prev_last_seq != 0) {
            return Err(InvalidField::PrevBoot);
        }
        self.prev_boot = prev_boot;
        self.prev_last_seq = prev_last_seq;
        Ok(self)
    }

    /// The same tower holding at most `limit` unacknowledged rolls (at most `H`).
    pub fn with_history_limit(mut self, limit: usize) -> Tower<H> {
        self.limit = limit.min(H);
        self
    }

    /// How many unacknowledged rolls it holds at most.
    pub fn history_limit(&self) -> usize {
        self.limit
    }

    /// This tower's id.
    pub fn device(&self) -> DeviceId {
        self.device
    }

    /// This boot's nonce.
    pub fn boot(&self) -> BootId {
        self.boot
    }

    /// The newest roll's sequence number (0 before the first).
    pub fn last_seq(&self) -> u32 {
        self.last_seq
    }

    /// How many rolls are waiting for an acknowledgement.
    pub fn held(&self) -> usize {
        self.count
    }

    /// How many corrupt frames the tower has received from the host.
    pub fn rx_errors(&self) -> u32 {
        self.rx_errors
    }

    /// Forgets a partly received host frame (after the cable was out, or a reset that kept
    /// the rest of the state).
    pub fn reset_receiver(&mut self) {
        self.rx.reset();
    }

    /// The hello announcing this tower.
    pub fn hello(&self) -> DeviceMessage {
        DeviceMessage::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            device: self.device,
            boot: self.boot,
            firmware: self.firmware,
            dice: self.dice,
            last_seq: self.last_seq,
            prev_boot: self.prev_boot,
            prev_last_seq: self.prev_last_seq,
        })
    }

    /// The heartbeat to send now.
    pub fn heartbeat(&self, uptime_ms: u32) -> DeviceMessage {
        DeviceMessage::Heartbeat(Heartbeat {
            boot: self.boot,
            last_seq: self.last_seq,
            uptime_ms,
        })
    }

    /// "Dice are falling."
    pub fn roll_started(&self, dice: u8) -> DeviceMessage {
        DeviceMessage::RollStarted(RollStarted {
            boot: self.boot,
            dice,
        })
    }

    /// A fault report.
    pub fn fault(&self, code: FaultCode, detail: u32) -> DeviceMessage {
        DeviceMessage::Fault(Fault {
            boot: self.boot,
            code,
            detail,
        })
    }

    /// Records a die thrown alone (a throw of one die, so its `throw` is its own `seq`) that
    /// settled at `now_ms` on the firmware's clock, and returns what to send. The roll is
    /// held until acknowledged.
    ///
    /// # Errors
    /// [`InvalidField`] if `sides`/`value` are not a die and a face of it (nothing is
    /// recorded then).
    pub fn roll(
        &mut self,
        die: u8,
        sides: u8,
        value: u8,
        now_ms: u32,
    ) -> Result<Rolled, InvalidField> {
        let result = self.result(1, die, sides, value)?;
        Ok(self.record(result, now_ms))
    }

    /// Records a throw that settled at `now_ms`: every die that settled together, in the
    /// order the firmware read them. They get consecutive sequence numbers and share one
    /// throw id, the first die's `seq`; every message to send goes to `emit`, in order (for
    /// each die a possible [`FaultCode::HistoryOverflow`] fault, then its [`RollResult`]).
    /// Returns the throw id.
    ///
    /// The throw is all or nothing: if any die is invalid, nothing is recorded or sent.
    ///
    /// # Errors
    /// [`InvalidField::Throw`] for a throw of no dice; [`InvalidField::DieSides`] or
    /// [`InvalidField::RollValue`] for a die that is no die or a value that is not a face of
    /// it; [`InvalidField::ZeroSeq`] if the sequence numbers would wrap (the firmware must
    /// reset instead).
    pub fn throw<F: FnMut(DeviceMessage)>(
        &mut self,
        dice: &[Settled],
        now_ms: u32,
        emit: &mut F,
    ) -> Result<u32, InvalidField> {
        if dice.is_empty() {
            return Err(InvalidField::Throw);
        }
        let mut k: u32 = 0;
        for d in dice {
            k = k.checked_add(1).ok_or(InvalidField::ZeroSeq)?;
            self.result(k, d.die, d.sides, d.value)?;
        }
        let throw = self.last_seq.wrapping_add(1);
        for d in dice {
            let result = self.result(1, d.die, d.sides, d.value)?;
            let result = RollResult { throw, ..result };
            let rolled = self.record(result, now_ms);
            if let Some(overflow) = rolled.overflow {
                emit(overflow);
            }
            emit(rolled.result);
        }
        Ok(throw)
    }

    /// The `k`-th next roll (k ≥ 1), checked, as the first die of its own throw.
    fn result(&self, k: u32, die: u8, sides: u8, value: u8) -> Result<RollResult, InvalidField> {
        let seq = self.last_seq.checked_add(k).ok_or(InvalidField::ZeroSeq)?;
        let result = RollResult {
            boot: self.boot,
            seq,
            throw: seq,
            die,
            sides,
            value,
            age_ms: 0,
        };
        result.validate()?;
        Ok(result)
    }

    /// Holds a valid roll whose `seq` is `last_seq + 1`.
    fn record(&mut self, result: RollResult, now_ms: u32) -> Rolled {
        let mut overflow = None;
        self.last_seq = result.seq;
        if self.limit == 0 || H == 0 {
            return Rolled {
                overflow: Some(self.fault(FaultCode::HistoryOverflow, result.seq)),
                result: DeviceMessage::RollResult(result),
            };
        }
        if self.count >= self.limit {
            let dropped = self.held.get(self.head).map_or(0, |h| h.roll.seq);
            self.head = (self.head + 1) % H;
            self.count -= 1;
            overflow = Some(self.fault(FaultCode::HistoryOverflow, dropped));
        }
        let tail = (self.head + self.count) % H;
        if let Some(slot) = self.held.get_mut(tail) {
            *slot = Held {
                roll: result,
                thrown_ms: now_ms,
            };
            self.count += 1;
        }
        Rolled {
            overflow,
            result: DeviceMessage::RollResult(result),
        }
    }

    /// The held rolls, oldest first (with `age_ms` 0; see [`Tower::handle`] for resends).
    pub fn held_rolls(&self) -> impl Iterator<Item = &RollResult> + '_ {
        (0..self.count)
            .filter_map(move |i| self.held.get((self.head + i) % H.max(1)).map(|h| &h.roll))
    }

    /// Feeds received bytes at `now_ms`; every message to send in answer goes to `emit`, in
    /// order.
    pub fn receive<F: FnMut(DeviceMessage)>(&mut self, bytes: &[u8], now_ms: u32, emit: &mut F) {
        for &b in bytes {
            match self.rx.push::<HostMessage>(b) {
                Some(Ok(msg)) => self.handle(msg, now_ms, emit),
                Some(Err(_)) => {
                    self.rx_errors = self.rx_errors.wrapping_add(1);
                    emit(self.fault(FaultCode::HostFrameCorrupt, self.rx_errors));
                }
                None => {}
            }
        }
    }

    /// Acts on one host message at `now_ms`; every message to send in answer goes to `emit`,
    /// in order.
    pub fn handle<F: FnMut(DeviceMessage)>(&mut self, msg: HostMessage, now_ms: u32, emit: &mut F) {
        match msg {
            HostMessage::Ping => emit(self.hello()),
            HostMessage::Ack(ack) => {
                if ack.boot != self.boot || H == 0 {
                    return;
                }
                while self.count > 0 {
                    let oldest = self.held.get(self.head).map_or(u32::MAX, |h| h.roll.seq);
                    if oldest > ack.seq {
                        break;
                    }
                    self.head = (self.head + 1) % H;
                    self.count -= 1;
                }
            }
            HostMessage::ResendSince(r) => {
                let since = if r.boot == self.boot { r.seq } else { 0 };
                if since >= self.last_seq || H == 0 {
                    return;
                }
                // Held seqs are contiguous and end at last_seq.
                let first_held = self
                    .last_seq
                    .saturating_sub(u32::try_from(self.count).unwrap_or(u32::MAX))
                    .saturating_add(1);
                if since.saturating_add(1) < first_held {
                    emit(self.fault(FaultCode::ResendUnavailable, first_held));
                }
                let mut sent = 0;
                for i in 0..self.count {
                    if sent == RESEND_BURST {
                        break;
                    }
                    if let Some(h) = self.held.get((self.head + i) % H)
                        && h.roll.seq > since
                    {
                        let age_ms = now_ms.wrapping_sub(h.thrown_ms);
                        emit(DeviceMessage::RollResult(RollResult { age_ms, ..h.roll }));
                        sent += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{Ack, ResendSince};

    fn tower<const H: usize>() -> Tower<H> {
        Tower::new(
            DeviceId(9),
            BootId(77),
            FirmwareVersion {
                major: 0,
                minor: 1,
                patch: 0,
            },
            DiceSet::new(&[6]).unwrap(),
        )
        .unwrap()
    }

    fn seqs(msgs: &[DeviceMessage]) -> Vec<u32> {
        msgs.iter()
            .filter_map(|m| match m {
                DeviceMessage::RollResult(r) => Some(r.seq),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn resend_sends_held_rolls_after_since() {
        let mut t = tower::<8>();
        for v in 1..=5 {
            t.roll(0, 6, v, 0).unwrap();
        }
        let mut out = Vec::new();
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 3,
            }),
            0,
            &mut |m| out.push(m),
        );
        assert_eq!(seqs(&out), vec![4, 5]);
        out.clear();
        // Another boot: everything held.
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(1),
                seq: 3,
            }),
            0,
            &mut |m| out.push(m),
        );
        assert_eq!(seqs(&out), vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn acks_for_other_boots_are_ignored_and_acks_trim() {
        let mut t = tower::<8>();
        for v in 1..=5 {
            t.roll(0, 6, v, 0).unwrap();
        }
        let mut sink = |_| {};
        t.handle(
            HostMessage::Ack(Ack {
                boot: BootId(1),
                seq: 5,
            }),
            0,
            &mut sink,
        );
        assert_eq!(t.held(), 5);
        t.handle(
            HostMessage::Ack(Ack {
                boot: BootId(77),
                seq: 3,
            }),
            0,
            &mut sink,
        );
        assert_eq!(t.held(), 2);
        assert_eq!(
            t.held_rolls().map(|r| r.seq).collect::<Vec<_>>(),
            vec![4, 5]
        );
    }

    #[test]
    fn overflow_discards_oldest_and_reports_it() {
        let mut t = tower::<3>();
        for v in 1..=3 {
            assert_eq!(t.roll(0, 6, v, 0).unwrap().overflow, None);
        }
        let r = t.roll(0, 6, 4, 0).unwrap();
        assert!(matches!(
            r.overflow,
            Some(DeviceMessage::Fault(Fault {
                code: FaultCode::HistoryOverflow,
                detail: 1,
                ..
            }))
        ));
        let mut out = Vec::new();
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 0,
            }),
            0,
            &mut |m| out.push(m),
        );
        assert!(matches!(
            out[0],
            DeviceMessage::Fault(Fault {
                code: FaultCode::ResendUnavailable,
                detail: 2,
                ..
            })
        ));
        assert_eq!(seqs(&out), vec![2, 3, 4]);
    }

    fn settled(sides: u8, value: u8) -> Settled {
        Settled {
            die: 0,
            sides,
            value,
        }
    }

    fn throws(msgs: &[DeviceMessage]) -> Vec<(u32, u32)> {
        msgs.iter()
            .filter_map(|m| match m {
                DeviceMessage::RollResult(r) => Some((r.seq, r.throw)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_throw_of_several_dice_shares_the_first_dies_seq() {
        let mut t = tower::<8>();
        let mut out = Vec::new();
        t.roll(0, 6, 1, 0).unwrap();
        assert_eq!(
            t.throw(&[settled(6, 3), settled(6, 5)], 0, &mut |m| out.push(m)),
            Ok(2)
        );
        assert_eq!(t.throw(&[settled(20, 17)], 0, &mut |m| out.push(m)), Ok(4));
        assert_eq!(throws(&out), vec![(2, 2), (3, 2), (4, 4)]);
        assert_eq!(t.last_seq(), 4);
        // A resend repeats the throw ids unchanged.
        out.clear();
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 0,
            }),
            0,
            &mut |m| out.push(m),
        );
        assert_eq!(throws(&out), vec![(1, 1), (2, 2), (3, 2), (4, 4)]);
    }

    #[test]
    fn a_throw_is_all_or_nothing_and_never_empty() {
        let mut t = tower::<8>();
        let mut out = Vec::new();
        assert_eq!(
            t.throw(&[settled(6, 3), settled(6, 7)], 0, &mut |m| out.push(m)),
            Err(InvalidField::RollValue)
        );
        assert_eq!(
            t.throw(&[], 0, &mut |m| out.push(m)),
            Err(InvalidField::Throw)
        );
        assert!(out.is_empty());
        assert_eq!((t.last_seq(), t.held()), (0, 0));
    }

    #[test]
    fn a_throw_overflowing_the_history_reports_each_dropped_roll() {
        let mut t = tower::<2>();
        let mut out = Vec::new();
        t.throw(
            &[settled(6, 1), settled(6, 2), settled(6, 3)],
            0,
            &mut |m| out.push(m),
        )
        .unwrap();
        assert!(matches!(
            out[2],
            DeviceMessage::Fault(Fault {
                code: FaultCode::HistoryOverflow,
                detail: 1,
                ..
            })
        ));
        assert_eq!(throws(&out), vec![(1, 1), (2, 1), (3, 1)]);
        assert_eq!(t.held(), 2);
    }

    #[test]
    fn invalid_rolls_are_not_recorded() {
        let mut t = tower::<3>();
        assert_eq!(t.roll(0, 6, 7, 0), Err(InvalidField::RollValue));
        assert_eq!(t.last_seq(), 0);
        assert_eq!(t.held(), 0);
    }

    #[test]
    fn the_history_limit_is_a_setting_and_overflow_is_reported() {
        let mut t = tower::<64>().with_history_limit(2);
        assert_eq!(t.history_limit(), 2);
        assert_eq!(t.roll(0, 6, 1, 0).unwrap().overflow, None);
        assert_eq!(t.roll(0, 6, 2, 0).unwrap().overflow, None);
        let third = t.roll(0, 6, 3, 0).unwrap();
        assert!(matches!(
            third.overflow,
            Some(DeviceMessage::Fault(Fault {
                code: FaultCode::HistoryOverflow,
                detail: 1,
                ..
            }))
        ));
        assert_eq!(t.held(), 2);
        assert_eq!(tower::<4>().with_history_limit(100).history_limit(), 4);
    }

    #[test]
    fn a_resend_is_a_bounded_burst_that_says_how_old_each_roll_is() {
        let mut t = tower::<128>();
        for i in 0..100u32 {
            t.roll(0, 6, 1, 1_000 + i).unwrap();
        }
        let mut out = Vec::new();
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 10,
            }),
            61_000,
            &mut |m| out.push(m),
        );
        let resent: Vec<(u32, u32)> = out
            .iter()
            .filter_map(|m| match m {
                DeviceMessage::RollResult(r) => Some((r.seq, r.age_ms)),
                _ => None,
            })
            .collect();
        assert_eq!(resent.len(), RESEND_BURST);
        assert_eq!(resent[0], (11, 60_000 - 10));
        assert_eq!(resent.last().unwrap().0, 10 + RESEND_BURST as u32);
        // The clock wraps: ages are still right.
        let mut w = tower::<4>();
        w.roll(0, 6, 1, u32::MAX - 5).unwrap();
        out.clear();
        w.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 0,
            }),
            10,
            &mut |m| out.push(m),
        );
        assert!(matches!(
            out[0],
            DeviceMessage::RollResult(RollResult { age_ms: 16, .. })
        ));
    }

    #[test]
    fn a_tower_that_remembers_its_previous_boot_names_it_in_its_hello() {
        let t = tower::<4>().following(BootId(5), 42).unwrap();
        assert!(matches!(
            t.hello(),
            DeviceMessage::Hello(Hello {
                prev_boot: BootId(5),
                prev_last_seq: 42,
                last_seq: 0,
                ..
            })
        ));
        assert_eq!(
            tower::<4>().following(BootId(77), 1).err(),
            Some(InvalidField::PrevBoot)
        );
        assert_eq!(
            tower::<4>().following(BootId(0), 1).err(),
            Some(InvalidField::PrevBoot)
        );
        assert!(matches!(
            tower::<4>().hello(),
            DeviceMessage::Hello(Hello {
                prev_boot: BootId(0),
                prev_last_seq: 0,
                ..
            })
        ));
    }
}
