//! Virtual dice: the app rolls.

use firmware_bridge::message::MIN_SIDES;
use rand::rngs::{StdRng, SysRng};
use rand::{RngExt, SeedableRng};

use super::{DiceError, DiceRoll, RollSource};

/// Dice the app rolls, from a seedable generator (source [`RollSource::Virtual`]).
///
/// Seed it for a reproducible game (tests, replays of a demo); seed it from the operating
/// system for real play.
#[derive(Debug)]
pub struct VirtualDice {
    rng: StdRng,
}

impl VirtualDice {
    /// Dice seeded from the operating system's randomness.
    ///
    /// # Errors
    /// [`DiceError::Entropy`] if the operating system gives no randomness.
    pub fn from_os() -> Result<VirtualDice, DiceError> {
        let rng =
            StdRng::try_from_rng(&mut SysRng).map_err(|e| DiceError::Entropy(e.to_string()))?;
        Ok(VirtualDice { rng })
    }

    /// Dice that roll the same sequence for the same seed.
    pub fn seeded(seed: u64) -> VirtualDice {
        VirtualDice {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Rolls one die; every face is equally likely.
    ///
    /// # Errors
    /// [`DiceError::NoSuchDie`] for fewer than two sides.
    pub fn roll(&mut self, sides: u8) -> Result<DiceRoll, DiceError> {
        if sides < MIN_SIDES {
            return Err(DiceError::NoSuchDie(sides));
        }
        Ok(DiceRoll {
            sides,
            value: self.rng.random_range(1..=sides),
            source: RollSource::Virtual,
        })
    }

    /// Rolls `count` dice of `sides` sides.
    ///
    /// # Errors
    /// [`DiceError::NoSuchDie`] for fewer than two sides.
    pub fn roll_many(&mut self, count: usize, sides: u8) -> Result<Vec<DiceRoll>, DiceError> {
        (0..count).map(|_| self.roll(sides)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_comes_up_about_equally_often() {
        let mut dice = VirtualDice::seeded(1);
        let mut counts = [0u32; 7];
        for r in dice.roll_many(60_000, 6).unwrap() {
            assert_eq!(r.source, RollSource::Virtual);
            counts[usize::from(r.value)] += 1;
        }
        assert_eq!(counts[0], 0);
        // 10,000 expected per face; 5 standard deviations is about ±460.
        for &c in &counts[1..] {
            assert!((9_500..=10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn seeds_repeat_and_os_dice_roll() {
        let a = VirtualDice::seeded(9).roll_many(50, 20).unwrap();
        let b = VirtualDice::seeded(9).roll_many(50, 20).unwrap();
        assert_eq!(a, b);
        let mut os = VirtualDice::from_os().unwrap();
        assert!((1..=255).contains(&os.roll(255).unwrap().value));
        assert_eq!(os.roll(1), Err(DiceError::NoSuchDie(1)));
        assert_eq!(os.roll(0), Err(DiceError::NoSuchDie(0)));
    }
}
