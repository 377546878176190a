//! The tower's side of the protocol as a sans-I/O state machine: the reference behaviour for
//! firmware, and the heart of [`crate::sim`].
//!
//! It keeps no clock and touches no port: the firmware calls [`Tower::throw`] when the dice
//! of a throw have settled (or [`Tower::roll`] for a die thrown alone), [`Tower::heartbeat`]
//! once a second, feeds every received byte to
//! [`Tower::receive`], and writes every message it is handed with [`crate::frame::encode`].
//! It needs no allocator; `H` is how many unacknowledged rolls it holds (32 is plenty for a
//! real tower: the host acknowledges within milliseconds).
//!
//! ```
//! use firmware_bridge::message::*;
//! use firmware_bridge::tower::{Settled, Tower};
//!
//! let mut tower = Tower::<32>::new(
//!     DeviceId(7), BootId(0x1234), FirmwareVersion { major: 1, minor: 0, patch: 0 },
//!     DiceSet::new(&[6, 6]).unwrap(),
//! ).unwrap();
//! let sent = tower.roll(0, 6, 4).unwrap();
//! assert!(matches!(sent.result, DeviceMessage::RollResult(RollResult { seq: 1, throw: 1, value: 4, .. })));
//! assert_eq!(tower.held(), 1);
//! // Two dice thrown together: seqs 2 and 3, both of throw 2.
//! let mut out = Vec::new();
//! let dice = [Settled { die: 0, sides: 6, value: 3 }, Settled { die: 1, sides: 6, value: 5 }];
//! assert_eq!(tower.throw(&dice, &mut |m| out.push(m)), Ok(2));
//! assert!(matches!(out[1], DeviceMessage::RollResult(RollResult { seq: 3, throw: 2, .. })));
//! tower.handle(HostMessage::Ack(Ack { boot: BootId(0x1234), seq: 3 }), &mut |m| out.push(m));
//! assert_eq!(tower.held(), 0);
//! ```

use crate::frame::FrameDecoder;
use crate::message::{
    BootId, DeviceId, DeviceMessage, DiceSet, Fault, FaultCode, FirmwareVersion, Heartbeat, Hello,
    HostMessage, InvalidField, PROTOCOL_VERSION, RollResult, RollStarted,
};

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

/// A tower's protocol state: identity, sequence counter and the unacknowledged rolls.
#[derive(Clone)]
pub struct Tower<const H: usize> {
    device: DeviceId,
    boot: BootId,
    firmware: FirmwareVersion,
    dice: DiceSet,
    last_seq: u32,
    /// Ring of held rolls: seqs `last_seq - count + 1 ..= last_seq`, oldest at `head`.
    held: [RollResult; H],
    head: usize,
    count: usize,
    rx: FrameDecoder,
    rx_errors: u32,
}

impl<const H: usize> Tower<H> {
    /// A tower just powered up: no rolls yet. `boot` must be fresh randomness at every
    /// power-up or reset.
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
        let blank = RollResult {
            boot,
            seq: 0,
            throw: 0,
            die: 0,
            sides: 0,
            value: 0,
        };
        Ok(Tower {
            device,
            boot,
            firmware,
            dice,
            last_seq: 0,
            held: [blank; H],
            head: 0,
            count: 0,
            rx: FrameDecoder::new(),
            rx_errors: 0,
        })
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

    /// The hello announcing this tower.
    pub fn hello(&self) -> DeviceMessage {
        DeviceMessage::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            device: self.device,
            boot: self.boot,
            firmware: self.firmware,
            dice: self.dice,
            last_seq: self.last_seq,
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

    /// Records a die thrown alone (a throw of one die, so its `throw` is its own `seq`) and
    /// returns what to send. The roll is held until acknowledged.
    ///
    /// # Errors
    /// [`InvalidField`] if `sides`/`value` are not a die and a face of it (nothing is
    /// recorded then).
    pub fn roll(&mut self, die: u8, sides: u8, value: u8) -> Result<Rolled, InvalidField> {
        let result = self.result(1, die, sides, value)?;
        Ok(self.record(result))
    }

    /// Records a throw: every die that settled together, in the order the firmware read
    /// them. They get consecutive sequence numbers and share one throw id, the first die's
    /// `seq`; every message to send goes to `emit`, in order (for each die a possible
    /// [`FaultCode::HistoryOverflow`] fault, then its [`RollResult`]). Returns the throw id.
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
            let rolled = self.record(result);
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
        };
        result.validate()?;
        Ok(result)
    }

    /// Holds a valid roll whose `seq` is `last_seq + 1`.
    fn record(&mut self, result: RollResult) -> Rolled {
        let mut overflow = None;
        if H == 0 {
            self.last_seq = result.seq;
            return Rolled {
                overflow: Some(self.fault(FaultCode::HistoryOverflow, result.seq)),
                result: DeviceMessage::RollResult(result),
            };
        }
        if self.count == H {
            let dropped = self.held.get(self.head).map_or(0, |r| r.seq);
            self.head = (self.head + 1) % H;
            self.count -= 1;
            overflow = Some(self.fault(FaultCode::HistoryOverflow, dropped));
        }
        let tail = (self.head + self.count) % H;
        if let Some(slot) = self.held.get_mut(tail) {
            *slot = result;
            self.count += 1;
        }
        self.last_seq = result.seq;
        Rolled {
            overflow,
            result: DeviceMessage::RollResult(result),
        }
    }

    /// The held rolls, oldest first.
    pub fn held_rolls(&self) -> impl Iterator<Item = &RollResult> + '_ {
        (0..self.count).filter_map(move |i| self.held.get((self.head + i) % H.max(1)))
    }

    /// Feeds received bytes; every message to send in answer goes to `emit`, in order.
    pub fn receive<F: FnMut(DeviceMessage)>(&mut self, bytes: &[u8], emit: &mut F) {
        for &b in bytes {
            match self.rx.push::<HostMessage>(b) {
                Some(Ok(msg)) => self.handle(msg, emit),
                Some(Err(_)) => {
                    self.rx_errors = self.rx_errors.wrapping_add(1);
                    emit(self.fault(FaultCode::HostFrameCorrupt, self.rx_errors));
                }
                None => {}
            }
        }
    }

    /// Acts on one host message; every message to send in answer goes to `emit`, in order.
    pub fn handle<F: FnMut(DeviceMessage)>(&mut self, msg: HostMessage, emit: &mut F) {
        match msg {
            HostMessage::Ping => emit(self.hello()),
            HostMessage::Ack(ack) => {
                if ack.boot != self.boot || H == 0 {
                    return;
                }
                while self.count > 0 {
                    let oldest = self.held.get(self.head).map_or(u32::MAX, |r| r.seq);
                    if oldest > ack.seq {
                        break;
                    }
                    self.head = (self.head + 1) % H;
                    self.count -= 1;
                }
            }
            HostMessage::ResendSince(r) => {
                let since = if r.boot == self.boot { r.seq } else { 0 };
                if since >= self.last_seq {
                    return;
                }
                // Held seqs are contiguous and end at last_seq.
                let first_held = self
                    .last_seq
                    .saturating_sub(u32::try_from(self.count).unwrap_or(u32::MAX))
                    .saturating_add(1);
                if since + 1 < first_held {
                    emit(self.fault(FaultCode::ResendUnavailable, first_held));
                }
                for i in 0..self.count {
                    if let Some(roll) = self.held.get((self.head + i) % H)
                        && roll.seq > since
                    {
                        emit(DeviceMessage::RollResult(*roll));
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
            t.roll(0, 6, v).unwrap();
        }
        let mut out = Vec::new();
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 3,
            }),
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
            &mut |m| out.push(m),
        );
        assert_eq!(seqs(&out), vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn acks_for_other_boots_are_ignored_and_acks_trim() {
        let mut t = tower::<8>();
        for v in 1..=5 {
            t.roll(0, 6, v).unwrap();
        }
        let mut sink = |_| {};
        t.handle(
            HostMessage::Ack(Ack {
                boot: BootId(1),
                seq: 5,
            }),
            &mut sink,
        );
        assert_eq!(t.held(), 5);
        t.handle(
            HostMessage::Ack(Ack {
                boot: BootId(77),
                seq: 3,
            }),
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
            assert_eq!(t.roll(0, 6, v).unwrap().overflow, None);
        }
        let r = t.roll(0, 6, 4).unwrap();
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
        t.roll(0, 6, 1).unwrap();
        assert_eq!(
            t.throw(&[settled(6, 3), settled(6, 5)], &mut |m| out.push(m)),
            Ok(2)
        );
        assert_eq!(t.throw(&[settled(20, 17)], &mut |m| out.push(m)), Ok(4));
        assert_eq!(throws(&out), vec![(2, 2), (3, 2), (4, 4)]);
        assert_eq!(t.last_seq(), 4);
        // A resend repeats the throw ids unchanged.
        out.clear();
        t.handle(
            HostMessage::ResendSince(ResendSince {
                boot: BootId(77),
                seq: 0,
            }),
            &mut |m| out.push(m),
        );
        assert_eq!(throws(&out), vec![(1, 1), (2, 2), (3, 2), (4, 4)]);
    }

    #[test]
    fn a_throw_is_all_or_nothing_and_never_empty() {
        let mut t = tower::<8>();
        let mut out = Vec::new();
        assert_eq!(
            t.throw(&[settled(6, 3), settled(6, 7)], &mut |m| out.push(m)),
            Err(InvalidField::RollValue)
        );
        assert_eq!(t.throw(&[], &mut |m| out.push(m)), Err(InvalidField::Throw));
        assert!(out.is_empty());
        assert_eq!((t.last_seq(), t.held()), (0, 0));
    }

    #[test]
    fn a_throw_overflowing_the_history_reports_each_dropped_roll() {
        let mut t = tower::<2>();
        let mut out = Vec::new();
        t.throw(&[settled(6, 1), settled(6, 2), settled(6, 3)], &mut |m| {
            out.push(m)
        })
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
        assert_eq!(t.roll(0, 6, 7), Err(InvalidField::RollValue));
        assert_eq!(t.last_seq(), 0);
        assert_eq!(t.held(), 0);
    }
}
