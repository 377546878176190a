//! The messages of protocol version 1, in both directions.
//!
//! Every type here is encoded with [postcard](https://postcard.jamesmunns.com/) (serde):
//! unsigned integers wider than a byte as LEB128 varints, `u8` as one raw byte, a struct as
//! its fields in declaration order, an enum as a varint tag (the variant's index) followed by
//! the variant's fields. `PROTOCOL.md` at the workspace root lists every byte.
//!
//! The field order and variant order of these types **are** the wire format: reordering
//! them is a protocol change and breaks the golden tests in `tests/golden.rs`.

use core::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The protocol version this crate speaks. It is byte 0 of every frame.
pub const PROTOCOL_VERSION: u8 = 1;

/// The most dice a tower can announce in its [`Hello`].
pub const MAX_DICE: usize = 16;

/// The fewest sides a die may have (a coin is a d2).
pub const MIN_SIDES: u8 = 2;

/// Identifies one physical tower for as long as it exists (a serial number or the
/// microcontroller's unique id folded to 64 bits). `0` is reserved and never valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DeviceId(pub u64);

impl fmt::Display for DeviceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A random number a tower draws at every power-up or reset (its *boot nonce*).
///
/// Sequence numbers restart at 1 on every boot, so `(device, boot, seq)` names one roll
/// uniquely; a changed boot id tells the host that the device was reset, so the host does not
/// mistake the new boot's rolls for duplicates of the old boot's. `0` is reserved and never
/// valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BootId(pub u32);

impl fmt::Display for BootId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08x}", self.0)
    }
}

/// The firmware's own version (semantic versioning), for display and bug reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FirmwareVersion {
    /// Incompatible changes.
    pub major: u8,
    /// Compatible additions.
    pub minor: u8,
    /// Fixes.
    pub patch: u8,
}

impl fmt::Display for FirmwareVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The dice a tower holds, as their numbers of sides (`[6, 6, 20]` is 2d6 and a d20).
///
/// At most [`MAX_DICE`] dice; each has at least [`MIN_SIDES`] sides. On the wire it is a
/// varint count followed by one byte per die.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceSet {
    len: u8,
    sides: [u8; MAX_DICE],
}

impl DiceSet {
    /// An empty set (a tower that does not know which dice it holds).
    pub const EMPTY: DiceSet = DiceSet {
        len: 0,
        sides: [0; MAX_DICE],
    };

    /// Builds a set from the dice's sides.
    ///
    /// # Errors
    /// [`InvalidField::TooManyDice`] for more than [`MAX_DICE`] dice and
    /// [`InvalidField::DieSides`] for a die with fewer than [`MIN_SIDES`] sides.
    pub fn new(sides: &[u8]) -> Result<DiceSet, InvalidField> {
        if sides.len() > MAX_DICE {
            return Err(InvalidField::TooManyDice);
        }
        let mut set = DiceSet::EMPTY;
        for (slot, &s) in set.sides.iter_mut().zip(sides) {
            if s < MIN_SIDES {
                return Err(InvalidField::DieSides);
            }
            *slot = s;
        }
        // `sides.len() <= MAX_DICE = 16` fits a u8.
        set.len = sides.len() as u8;
        Ok(set)
    }

    /// The dice's sides, in the tower's order (the order [`RollResult::die`] indexes).
    pub fn as_slice(&self) -> &[u8] {
        self.sides.get(..usize::from(self.len)).unwrap_or(&[])
    }

    /// The number of dice.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the tower announced no dice.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for DiceSet {
    fn default() -> Self {
        DiceSet::EMPTY
    }
}

impl fmt::Debug for DiceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for DiceSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // postcard: varint length, then the bytes as they are.
        serializer.serialize_bytes(self.as_slice())
    }
}

impl<'de> Deserialize<'de> for DiceSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<DiceSet, D::Error> {
        struct DiceVisitor;

        impl<'de> Visitor<'de> for DiceVisitor {
            type Value = DiceSet;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "at most {MAX_DICE} dice of at least {MIN_SIDES} sides")
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<DiceSet, E> {
                DiceSet::new(v).map_err(|_| E::invalid_length(v.len(), &self))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<DiceSet, A::Error> {
                let mut set = DiceSet::EMPTY;
                let mut len = 0usize;
                while let Some(s) = seq.next_element::<u8>()? {
                    let Some(slot) = set.sides.get_mut(len) else {
                        return Err(de::Error::invalid_length(len + 1, &self));
                    };
                    *slot = s;
                    len += 1;
                }
                DiceSet::new(set.sides.get(..len).unwrap_or(&[]))
                    .map_err(|_| de::Error::invalid_length(len, &self))
            }
        }

        deserializer.deserialize_bytes(DiceVisitor)
    }
}

/// Why a decoded message was refused although its frame was intact: a field holds a value
/// the protocol forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum InvalidField {
    /// A device id of 0 (reserved).
    #[error("device id 0 is reserved")]
    ZeroDevice,
    /// A boot id of 0 (reserved).
    #[error("boot id 0 is reserved")]
    ZeroBoot,
    /// A roll's sequence number of 0 (sequence numbers start at 1).
    #[error("roll sequence number 0 is reserved (they start at 1)")]
    ZeroSeq,
    /// A roll's throw id of 0, or newer than the roll itself (a throw is named by the
    /// sequence number of its first die, so `1 <= throw <= seq`).
    #[error("roll throw id must be 1..=seq (the seq of the throw's first die)")]
    Throw,
    /// A die with fewer than two sides.
    #[error("a die needs at least {MIN_SIDES} sides")]
    DieSides,
    /// A rolled value outside `1..=sides`.
    #[error("rolled value is not a face of the die (1..=sides)")]
    RollValue,
    /// More than [`MAX_DICE`] dice in a hello.
    #[error("more than {MAX_DICE} dice announced")]
    TooManyDice,
    /// A hello announcing protocol version 0.
    #[error("hello announces protocol version 0")]
    ZeroProtocol,
    /// A hello whose previous boot is its own boot, or that names a last roll of an unknown
    /// previous boot (`prev_boot` 0 with `prev_last_seq` not 0).
    #[error("hello's previous boot must differ from its boot, and be known to have rolls")]
    PrevBoot,
}

/// Tower → host: "this is who I am". Sent at power-up and in answer to every
/// [`HostMessage::Ping`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hello {
    /// The newest protocol version the firmware speaks (1 for this version). The version
    /// of each frame is in its header byte.
    pub protocol: u8,
    /// Which tower this is.
    pub device: DeviceId,
    /// This power-up's boot nonce.
    pub boot: BootId,
    /// The firmware's version.
    pub firmware: FirmwareVersion,
    /// The dice the tower holds.
    pub dice: DiceSet,
    /// The sequence number of the newest roll of this boot (0 before the first roll), so a
    /// host can tell at once whether it missed any.
    pub last_seq: u32,
    /// The boot this one follows, as the tower remembers it in non-volatile memory: with
    /// [`Hello::prev_last_seq`] it tells the host exactly which rolls a reset took away.
    /// `BootId(0)`: the tower cannot say (it keeps nothing across a reset, or never booted
    /// before).
    pub prev_boot: BootId,
    /// The sequence number of the last roll the previous boot issued (0 when `prev_boot` is 0,
    /// or when it issued none).
    pub prev_last_seq: u32,
}

/// Tower → host: dice are falling; results follow. Not acknowledged and not resent: it only
/// lets the app show "rolling…".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RollStarted {
    /// This power-up's boot nonce.
    pub boot: BootId,
    /// How many dice the tower saw falling (0 if it cannot tell).
    pub dice: u8,
}

/// Tower → host: one die has settled. Each die of a throw is its own roll with its own
/// sequence number; the dice of one throw have consecutive sequence numbers and share
/// [`RollResult::throw`]. Held by the tower until acknowledged, and sent again on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RollResult {
    /// This power-up's boot nonce.
    pub boot: BootId,
    /// 1, 2, 3, … per boot, one per die result, never reused within a boot.
    pub seq: u32,
    /// The throw this die belongs to: the `seq` of the first die of its throw, so a die
    /// thrown alone has `throw == seq`, and a throw of three dice with seqs 7, 8, 9 has
    /// `throw == 7` on all three. Always `1..=seq`.
    pub throw: u32,
    /// The index of the die in the tower's [`Hello::dice`] (0 if the tower has one kind).
    pub die: u8,
    /// The die's number of sides.
    pub sides: u8,
    /// The face that came up, `1..=sides` (a d10's "0" face is reported as 10).
    pub value: u8,
    /// Milliseconds from the die settling to this frame being written: about 0 when it is
    /// sent at once, more when it is sent again (the cable was out, the first frame was
    /// damaged). It lets the host tell a late roll from a fresh one. Saturates at `u32::MAX`.
    pub age_ms: u32,
}

/// Tower → host: "still here", sent about once a second when the link is idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Heartbeat {
    /// This power-up's boot nonce.
    pub boot: BootId,
    /// The sequence number of the newest roll of this boot (0 before the first). A host that
    /// has delivered less asks for the rest.
    pub last_seq: u32,
    /// Milliseconds since power-up (wraps after about 49 days).
    pub uptime_ms: u32,
}

/// What went wrong in a [`Fault`]. On the wire a varint `u16`; codes this version does not
/// know decode as [`FaultCode::Other`] so newer firmware does not break older hosts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "u16", into = "u16")]
pub enum FaultCode {
    /// 1: a die could not be read (sensor failure); the throw should be repeated.
    /// `detail`: the die index.
    SensorFailure,
    /// 2: a die landed cocked or its face was unreadable; the throw should be repeated.
    /// `detail`: the die index.
    CockedDie,
    /// 3: the tower's roll history was full and it discarded unacknowledged rolls.
    /// `detail`: the sequence number of the newest discarded roll.
    HistoryOverflow,
    /// 4: the host asked for rolls the tower no longer holds.
    /// `detail`: the lowest sequence number the tower can still send (its last `seq + 1`
    /// if it holds none).
    ResendUnavailable,
    /// 5: the tower received a corrupt frame from the host. `detail`: how many so far.
    HostFrameCorrupt,
    /// Any other code (from newer firmware).
    Other(u16),
}

impl From<u16> for FaultCode {
    fn from(code: u16) -> FaultCode {
        match code {
            1 => FaultCode::SensorFailure,
            2 => FaultCode::CockedDie,
            3 => FaultCode::HistoryOverflow,
            4 => FaultCode::ResendUnavailable,
            5 => FaultCode::HostFrameCorrupt,
            other => FaultCode::Other(other),
        }
    }
}

impl From<FaultCode> for u16 {
    fn from(code: FaultCode) -> u16 {
        match code {
            FaultCode::SensorFailure => 1,
            FaultCode::CockedDie => 2,
            FaultCode::HistoryOverflow => 3,
            FaultCode::ResendUnavailable => 4,
            FaultCode::HostFrameCorrupt => 5,
            FaultCode::Other(other) => other,
        }
    }
}

/// Tower → host: something went wrong on the tower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fault {
    /// This power-up's boot nonce.
    pub boot: BootId,
    /// What went wrong.
    pub code: FaultCode,
    /// A number whose meaning depends on the code (see [`FaultCode`]).
    pub detail: u32,
}

/// Every message a tower sends to the host. The variant index is the tag byte on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeviceMessage {
    /// Tag 0.
    Hello(Hello),
    /// Tag 1.
    RollStarted(RollStarted),
    /// Tag 2.
    RollResult(RollResult),
    /// Tag 3.
    Heartbeat(Heartbeat),
    /// Tag 4.
    Fault(Fault),
}

/// Host → tower: "I have every roll of `boot` up to and including `seq`" (cumulative). The
/// tower may forget those rolls. An ack for another boot is ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ack {
    /// The boot the acknowledged rolls belong to.
    pub boot: BootId,
    /// The newest roll the host has, with all before it.
    pub seq: u32,
}

/// Host → tower: "send again every roll you hold with a sequence number above `seq`".
/// If `boot` is not the tower's current boot, the tower sends every roll it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResendSince {
    /// The boot the host's `seq` refers to.
    pub boot: BootId,
    /// The newest roll the host has (0 for none).
    pub seq: u32,
}

/// Every message the host sends to a tower. The variant index is the tag byte on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HostMessage {
    /// Tag 0.
    Ack(Ack),
    /// Tag 1: "who are you?" The tower answers with its [`Hello`].
    Ping,
    /// Tag 2.
    ResendSince(ResendSince),
}

fn check_boot(boot: BootId) -> Result<(), InvalidField> {
    if boot.0 == 0 {
        Err(InvalidField::ZeroBoot)
    } else {
        Ok(())
    }
}

impl RollResult {
    /// Checks the field rules: non-zero boot and seq, `1 <= throw <= seq`, `sides >= 2`,
    /// `1 <= value <= sides`.
    ///
    /// # Errors
    /// The first rule broken.
    pub fn validate(&self) -> Result<(), InvalidField> {
        check_boot(self.boot)?;
        if self.seq == 0 {
            return Err(InvalidField::ZeroSeq);
        }
        if self.throw == 0 || self.throw > self.seq {
            return Err(InvalidField::Throw);
        }
        if self.sides < MIN_SIDES {
            return Err(InvalidField::DieSides);
        }
        if self.value == 0 || self.value > self.sides {
            return Err(InvalidField::RollValue);
        }
        Ok(())
    }
}

/// A message that travels in a frame: it knows its direction byte and its field rules.
pub trait WireMessage: Serialize + for<'de> Deserialize<'de> {
    /// Byte 1 of the frame: [`DIRECTION_DEVICE`] or [`DIRECTION_HOST`].
    const DIRECTION: u8;

    /// Checks the rules serde cannot express (reserved zeros, value ranges).
    ///
    /// # Errors
    /// The first rule broken.
    fn validate(&self) -> Result<(), InvalidField>;
}

/// Direction byte of frames sent by a tower (`'D'`).
pub const DIRECTION_DEVICE: u8 = b'D';
/// Direction byte of frames sent by the host (`'H'`).
pub const DIRECTION_HOST: u8 = b'H';

impl WireMessage for DeviceMessage {
    const DIRECTION: u8 = DIRECTION_DEVICE;

    fn validate(&self) -> Result<(), InvalidField> {
        match self {
            DeviceMessage::Hello(h) => {
                if h.protocol == 0 {
                    return Err(InvalidField::ZeroProtocol);
                }
                if h.device.0 == 0 {
                    return Err(InvalidField::ZeroDevice);
                }
                check_boot(h.boot)?;
                if h.prev_boot == h.boot || (h.prev_boot.0 == 0 && h.prev_last_seq != 0) {
                    return Err(InvalidField::PrevBoot);
                }
                Ok(())
            }
            DeviceMessage::RollStarted(r) => check_boot(r.boot),
            DeviceMessage::RollResult(r) => r.validate(),
            DeviceMessage::Heartbeat(h) => check_boot(h.boot),
            DeviceMessage::Fault(f) => check_boot(f.boot),
        }
    }
}

impl WireMessage for HostMessage {
    const DIRECTION: u8 = DIRECTION_HOST;

    fn validate(&self) -> Result<(), InvalidField> {
        match self {
            HostMessage::Ack(a) => check_boot(a.boot),
            HostMessage::Ping => Ok(()),
            // boot 0 is allowed here: "I know no boot of yours, send everything".
            HostMessage::ResendSince(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_set_limits() {
        assert_eq!(DiceSet::new(&[6, 6, 20]).unwrap().as_slice(), &[6, 6, 20]);
        assert_eq!(DiceSet::new(&[6; 17]), Err(InvalidField::TooManyDice));
        assert_eq!(DiceSet::new(&[6, 1]), Err(InvalidField::DieSides));
        assert!(DiceSet::new(&[]).unwrap().is_empty());
    }

    #[test]
    fn fault_codes_round_trip_through_u16() {
        for code in 0..=600u16 {
            assert_eq!(u16::from(FaultCode::from(code)), code);
        }
    }

    #[test]
    fn roll_rules() {
        let ok = RollResult {
            boot: BootId(1),
            seq: 1,
            throw: 1,
            die: 0,
            sides: 6,
            value: 6,
            age_ms: 0,
        };
        assert_eq!(ok.validate(), Ok(()));
        assert_eq!(
            RollResult { value: 7, ..ok }.validate(),
            Err(InvalidField::RollValue)
        );
        assert_eq!(
            RollResult { value: 0, ..ok }.validate(),
            Err(InvalidField::RollValue)
        );
        assert_eq!(
            RollResult {
                sides: 1,
                value: 1,
                ..ok
            }
            .validate(),
            Err(InvalidField::DieSides)
        );
        assert_eq!(
            RollResult { seq: 0, ..ok }.validate(),
            Err(InvalidField::ZeroSeq)
        );
        assert_eq!(
            RollResult { throw: 0, ..ok }.validate(),
            Err(InvalidField::Throw)
        );
        assert_eq!(
            RollResult { throw: 2, ..ok }.validate(),
            Err(InvalidField::Throw)
        );
        assert_eq!(
            RollResult {
                seq: 9,
                throw: 7,
                ..ok
            }
            .validate(),
            Ok(())
        );
        assert_eq!(
            RollResult {
                boot: BootId(0),
                ..ok
            }
            .validate(),
            Err(InvalidField::ZeroBoot)
        );
    }

    #[test]
    fn a_hello_names_another_boot_as_its_previous_one_or_none() {
        let hello = |prev_boot, prev_last_seq| {
            DeviceMessage::Hello(Hello {
                protocol: 1,
                device: DeviceId(1),
                boot: BootId(9),
                firmware: FirmwareVersion {
                    major: 1,
                    minor: 0,
                    patch: 0,
                },
                dice: DiceSet::EMPTY,
                last_seq: 0,
                prev_boot: BootId(prev_boot),
                prev_last_seq,
            })
            .validate()
        };
        assert_eq!(hello(0, 0), Ok(()));
        assert_eq!(hello(8, 41), Ok(()));
        assert_eq!(hello(8, 0), Ok(()));
        assert_eq!(hello(9, 3), Err(InvalidField::PrevBoot));
        assert_eq!(hello(0, 3), Err(InvalidField::PrevBoot));
    }
}
