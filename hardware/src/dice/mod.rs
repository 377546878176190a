//! Dice sources: typed entry, virtual dice, and the dice tower.
//!
//! Whatever the source, a die result is a [`DiceRoll`]: its sides, its value and where it came
//! from ([`RollSource`]). The rules core asks for dice with prompts; the app feeds it
//! `DiceRoll`s from any of these sources in the order they happen.
//!
//! - [`parse_entry`]: what a player types (`"d6 4"`, `"2d6 3 5"`, or `"4"` when the prompt
//!   already says which die), with a clear reason when the text is no roll.
//! - [`VirtualDice`]: the app rolls (a seedable random generator).
//! - [`TowerDice`]: rolls from the dice tower's serial link, each delivered once, with when it
//!   was thrown; and the dice the link knows are lost ([`TowerEvent`]).

mod entry;
mod tower;
mod virtual_dice;

pub use entry::{MAX_TYPED_DICE, parse_entry};
/// The tower link's types, for the app (which reaches devices only through `hardware`).
pub use firmware_bridge::{link, message, text};
pub use tower::{TowerDice, TowerEvent, TowerRoll};
pub use virtual_dice::VirtualDice;

use firmware_bridge::link::{LinkError, TowerRef};
use firmware_bridge::message::MIN_SIDES;

/// Where a die result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RollSource {
    /// The dice tower.
    Tower {
        /// Which tower (and which of its boots).
        device: TowerRef,
        /// The tower's sequence number for this die (per boot; counted by the link for a
        /// printing tower).
        seq: u32,
        /// The throw it belongs to: the `seq` of the throw's first die (`== seq` for a die
        /// thrown alone). Dice thrown together share it; per boot, like `seq`.
        throw: u32,
        /// The die's index in the tower's dice set.
        die: u8,
    },
    /// Typed in by a player.
    Typed,
    /// Rolled by the app.
    Virtual,
}

/// One die result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceRoll {
    /// The die's number of sides (a d6 has 6).
    pub sides: u8,
    /// The face that came up, `1..=sides`.
    pub value: u8,
    /// Where it came from.
    pub source: RollSource,
}

impl From<&firmware_bridge::link::Roll> for DiceRoll {
    fn from(roll: &firmware_bridge::link::Roll) -> DiceRoll {
        DiceRoll {
            sides: roll.sides,
            value: roll.value,
            source: RollSource::Tower {
                device: roll.device,
                seq: roll.seq,
                throw: roll.throw,
                die: roll.die,
            },
        }
    }
}

/// Why a dice source could not give a roll. The messages are meant for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// Nothing was typed.
    #[error("nothing typed: enter the dice, e.g. `d6 4` or `2d6 3 5`")]
    Empty,
    /// A word that is neither a die nor a number.
    #[error("`{token}` is neither a die (like `d6` or `2d6`) nor a number")]
    NotUnderstood {
        /// The word.
        token: String,
    },
    /// A die with too few or too many sides.
    #[error("`{token}` is not a die: a die has {MIN_SIDES} to 255 sides")]
    BadSides {
        /// The die as typed.
        token: String,
    },
    /// A dice count of 0 or more than [`MAX_TYPED_DICE`].
    #[error("`{token}`: roll 1 to {MAX_TYPED_DICE} dice at a time")]
    BadCount {
        /// The dice as typed.
        token: String,
    },
    /// A value that no face of the die shows.
    #[error("{value} is not on a d{sides} (its faces are 1 to {sides})")]
    NotAFace {
        /// The value typed.
        value: u64,
        /// The die's sides.
        sides: u8,
    },
    /// `2d6` with one value, or `2d6 1 2 3`.
    #[error("`{dice}` needs {expected} value(s), {found} typed")]
    WrongCount {
        /// The dice as typed.
        dice: String,
        /// Values needed.
        expected: usize,
        /// Values typed.
        found: usize,
    },
    /// Only values were typed, and nothing says which die they are on.
    #[error("which die? write it before the values, e.g. `d6 {example}`")]
    SidesUnknown {
        /// The first value typed, for the example in the message.
        example: String,
    },
    /// A die with fewer than two sides was asked for (virtual dice).
    #[error("a d{0} cannot be rolled: a die has {MIN_SIDES} to 255 sides")]
    NoSuchDie(u8),
    /// The operating system gave no randomness to seed virtual dice.
    #[error("no randomness to seed the virtual dice: {0}")]
    Entropy(String),
    /// The dice tower's link could not start.
    #[error("dice tower: {0}")]
    Link(#[from] LinkError),
}
