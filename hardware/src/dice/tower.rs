//! The dice tower as a dice source.

use std::time::{Duration, Instant};

use firmware_bridge::link::{Link, LinkConfig, LinkHealth, LossReport};

use super::{DiceError, DiceRoll};

/// A die from the tower, with when it was thrown and whether the link was down then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TowerRoll {
    /// The die, with source [`super::RollSource::Tower`].
    pub roll: DiceRoll,
    /// When the link delivered it.
    pub received_at: Instant,
    /// When it was thrown (the tower says how old a roll it sends again is).
    pub thrown_at: Instant,
    /// Thrown while the link had no port open to the tower (it was unplugged).
    pub offline: bool,
}

impl TowerRoll {
    /// How long after its throw it was delivered.
    pub fn age(&self) -> Duration {
        self.received_at.saturating_duration_since(self.thrown_at)
    }
}

/// What the tower link delivered: a die, or dice it knows are lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TowerEvent {
    /// A die, delivered once.
    Roll(TowerRoll),
    /// Dice thrown but never to be delivered (see [`LossReport`]): the players throw again.
    Lost(LossReport),
}

impl TowerEvent {
    fn at(&self) -> Instant {
        match self {
            TowerEvent::Roll(r) => r.received_at,
            TowerEvent::Lost(l) => l.at,
        }
    }
}

/// Rolls from the dice tower's serial link ([`firmware_bridge::link`]), as [`DiceRoll`]s with
/// source [`super::RollSource::Tower`]. The link delivers each die once, in order; this only
/// changes the type, and merges in the link's loss reports ([`TowerDice::drain_events`]).
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

    /// Every roll and every loss report waiting now, in the order the link made them (by
    /// time; a loss found at the same moment as a roll comes first).
    pub fn drain_events(&mut self) -> Vec<TowerEvent> {
        let mut events: Vec<TowerEvent> = std::iter::from_fn(|| self.link.try_recv_loss())
            .map(TowerEvent::Lost)
            .collect();
        events.extend(std::iter::from_fn(|| self.link.try_recv()).map(|r| {
            TowerEvent::Roll(TowerRoll {
                roll: DiceRoll::from(&r),
                received_at: r.received_at,
                thrown_at: r.thrown_at,
                offline: r.offline,
            })
        }));
        // Stable: rolls keep their order, losses stay before rolls of the same instant.
        events.sort_by_key(TowerEvent::at);
        events
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
