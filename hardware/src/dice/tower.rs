//! The dice tower as a dice source.

use firmware_bridge::link::{Link, LinkConfig, LinkHealth};

use super::{DiceError, DiceRoll};

/// Rolls from the dice tower's serial link ([`firmware_bridge::link`]), as [`DiceRoll`]s with
/// source [`super::RollSource::Tower`]. The link delivers each die once, in order; this only
/// changes the type.
#[derive(Debug)]
pub struct TowerDice {
    link: Link,
}

impl TowerDice {
    /// Wraps a running link.
    pub fn new(link: Link) -> TowerDice {
        TowerDice { link }
    }

    /// Starts a link on its own thread ([`Link::start`]) and wraps it.
    ///
    /// # Errors
    /// [`DiceError::Link`] if the link cannot start.
    pub fn start(config: LinkConfig) -> Result<TowerDice, DiceError> {
        Ok(TowerDice::new(Link::start(config)?))
    }

    /// The next roll, if one is waiting (never blocks; for a UI frame).
    pub fn try_next(&mut self) -> Option<DiceRoll> {
        self.link.try_recv().map(|r| DiceRoll::from(&r))
    }

    /// Every roll waiting now, oldest first.
    pub fn drain(&mut self) -> Vec<DiceRoll> {
        std::iter::from_fn(|| self.try_next()).collect()
    }

    /// Waits for the next roll; `None` once the link has stopped.
    pub async fn next(&mut self) -> Option<DiceRoll> {
        self.link.recv().await.map(|r| DiceRoll::from(&r))
    }

    /// The link's health, for the UI.
    pub fn health(&self) -> LinkHealth {
        self.link.health()
    }

    /// The link itself (to watch its health, or stop it).
    pub fn link_mut(&mut self) -> &mut Link {
        &mut self.link
    }
}
