//! Yomi (second edition): a 2-player fighting card game played with poker-deck character decks.
//!
//! Follows `rules/yomi.md` (the digest of seed `004_00642bcc7b1b67a6.txt`). Every turn runs the
//! draw phase (1-1 both draw, skipped on turn 1; 1-2 `[Draw Phase]` abilities), the combat phase
//! (2-1 both place a card face down or declare "no card"; 2-2 reveal, extra Aces for multi-Ace
//! supers; 2-3 `[Combat Reveal]`; 2-4 the winner by the combat matrix, lower speed faster; 2-5
//! `[During Combat]`), the escape phase (3-1 the normal-attack draw; 3-2 the loser may put an escape
//! card face down), the combo phase (4-1 the block returns and draws; 4-2 the winner pumps and
//! combos; 4-3 the blue burst; 4-4a damage; 4-4b knockdown) and the power-up phase (5-1 gold burst;
//! 5-2 `[End of Combat]`/`[Full Combo]`; 5-3 the table is discarded; 5-4 chain-combo Aces; 5-5
//! power-ups; 5-6 `[End of Turn]`; 5-7 the hand limit; 5-8 the next turn). A player at 0 HP loses
//! at once; when a deck reaches 0 the lower HP loses (equal: a draw).
//!
//! The app cannot see the hands, so it tracks each player's *unseen* cards (deck and hand
//! together), the hand and deck sizes and the discard pile; a card played must be one of the unseen
//! cards. Ability windows open only when a character or a card on the table has an ability of
//! that timing (house rule `ability_windows`). Written abilities are resolved by the players and
//! entered as `effect` moves (HP, draws, speed, extra combo damage) or `search` moves.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::yomi::{demo_header, Move, Yomi};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::Yomi).unwrap();
//! let mut m = Match::<Yomi>::new(demo_header(&cat, ["Aki", "Ben"], ["akane", "gou"]).unwrap(), &cat).unwrap();
//! assert_eq!(m.state().players[0].hand, 7);
//! for mv in [Move::FaceDown { player: 0 }, Move::FaceDown { player: 1 }] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! assert_eq!(m.state().players[1].hand, 6);
//! ```

use crate::catalogue::yomi::{Ability, End, MoveEnd, MoveKind, Rank, Timing};
use crate::catalogue::{Card, CardData, Catalogue, YomiCard};
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat,
    Tracker, TrackerId, Violation,
};
use crate::decks::{CopyRef, Deck};
use crate::game::{Game, MatchHeader, PlayerConfig, SetupError};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Cards in the starting hand (seed 0-1).
pub const START_HAND: i32 = 7;
/// Largest change one `effect` may enter for a number.
pub const MAX_CHANGE: i32 = 99;
/// Cards one `effect` may draw at most.
pub const MAX_EFFECT_DRAW: i32 = 10;

const SEED: &str = "seed 004";

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Yomi;

/// What "no card" does against the other player's card (digest §10.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoCardRule {
    /// "No card" loses to an attack, a throw or a Joker (default).
    #[default]
    LosesToStrikes,
    /// Nothing happens, whatever the other card.
    Nothing,
}

/// What Joker against Joker gives (digest §10.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JokerTie {
    /// A drawn combat: both get the gold-burst Ace search (default).
    #[default]
    Draw,
    /// Nothing happens: no gold burst.
    Nothing,
}

/// When a deck at 0 ends the game (digest §10.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeOut {
    /// The moment a deck count reaches 0, by a draw or an Ace search (default).
    #[default]
    AtOnce,
    /// At the end of the turn in which a deck reached 0 (5-8).
    EndOfTurn,
}

/// Who wins when both players reach 0 HP at the same moment (digest §7, §10.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DoubleKo {
    /// A draw (default).
    #[default]
    Draw,
    /// The player with more HP left (less far below 0) wins; equal is a draw.
    HigherHpWins,
}

/// When the app stops at an ability step (1-2, 2-3, 2-5, 5-2, 5-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbilityWindows {
    /// Only when a character card or a card on the table has an ability of that timing (default).
    #[default]
    Relevant,
    /// At every ability step (for abilities of cards in hand).
    Always,
}

/// House rules: the gaps of `rules/yomi.md` §10 (and the second-edition rules of §8) that players
/// could settle differently. Missing keys take the digest's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §10.2: what "no card" does.
    pub no_card: NoCardRule,
    /// §10.3: Joker against Joker.
    pub joker_vs_joker: JokerTie,
    /// §10.4: the block card returns to hand whenever the blocker did not lose (Y3), not only when
    /// the block won (seed, default false). The draw stays tied to a winning block.
    pub block_returns_unless_lost: bool,
    /// §10.5: when a deck at 0 ends the game.
    pub time_out: TimeOut,
    /// §10.6: both at 0 HP at once.
    pub double_ko: DoubleKo,
    /// §10.7: offer the escape card after any win that may combo (a dodge too), not only after an
    /// attack or throw hit (default false).
    pub escape_after_any_win: bool,
    /// §10.9: check that the combo points spent stay within the character's combo limit.
    pub check_combo_limit: bool,
    /// §10.9: the combat card's combo points count towards the combo limit.
    pub combat_card_counts: bool,
    /// When the app stops at an ability step.
    pub ability_windows: AbilityWindows,
    /// §8 second edition: the hand limit at 5-7.
    pub hand_limit: bool,
    /// §8 second edition: the normal-attack draw at 3-1.
    pub normal_attack_draw: bool,
    /// §8 second edition: HP never goes above the starting value.
    pub hp_cap: bool,
    /// §8 second edition: a double knockdown cancels out.
    pub double_knockdown_cancels: bool,
    /// §9: the app deals a blocked attack's printed block damage to the blocker (default false:
    /// the players enter it by hand).
    pub apply_block_damage: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            no_card: NoCardRule::LosesToStrikes,
            joker_vs_joker: JokerTie::Draw,
            block_returns_unless_lost: false,
            time_out: TimeOut::AtOnce,
            double_ko: DoubleKo::Draw,
            escape_after_any_win: false,
            check_combo_limit: true,
            combat_card_counts: true,
            ability_windows: AbilityWindows::Relevant,
            hand_limit: true,
            normal_attack_draw: true,
            hp_cap: true,
            double_knockdown_cancels: true,
            apply_block_damage: false,
        }
    }
}

/// Where the turn stands. Steps the app runs by itself (1-1, 2-4, 3-1, 4-1, 4-4, 5-3, 5-4's
/// entitlement, 5-8) have no step of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// 1-2: `[Draw Phase]` abilities.
    DrawAbilities,
    /// 2-1: both choose a card face down, or declare "no card".
    Select,
    /// 2-2: both reveal; extra Aces for multi-Ace supers.
    Reveal,
    /// 2-3: `[Combat Reveal]` abilities.
    RevealAbilities,
    /// 2-5: `[During Combat]` abilities (the winner is decided).
    DuringCombat,
    /// 3-2: the loser may put an escape card face down.
    Escape,
    /// 4-2: the winner pumps and combos.
    Combo,
    /// 4-3: the escape card is revealed (blue burst).
    BlueBurst,
    /// 5-1: gold burst: up to 2 Aces.
    GoldBurst,
    /// 5-2: `[End of Combat]` and `[Full Combo]` abilities.
    EndOfCombat,
    /// 5-4 and 5-5: chain-combo Aces and power-ups.
    PowerUp,
    /// 5-6: `[End of Turn]` abilities.
    EndOfTurn,
    /// 5-7: discard down to the hand limit.
    HandLimit,
    /// The game is over.
    Over,
}

/// A player's combat card this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Play {
    /// Nothing chosen yet.
    #[default]
    Empty,
    /// A card face down.
    FaceDown,
    /// "No card" declared.
    NoCard,
    /// The revealed card and the end facing the opponent.
    Revealed {
        /// Card id.
        card: String,
        /// The end facing the opponent.
        end: End,
    },
}

/// The loser's escape card this turn (3-2, 4-3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", content = "card", rename_all = "kebab-case")]
pub enum Escape {
    /// Not offered, or not decided yet.
    #[default]
    None,
    /// A card face down.
    FaceDown,
    /// Declined.
    Declined,
    /// Revealed at 4-3.
    Revealed(String),
}

/// What a combat card is in the combat matrix (digest §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// An attack.
    Attack,
    /// A throw.
    Throw,
    /// A block.
    Block,
    /// A dodge.
    Dodge,
    /// A Joker (gold burst).
    Joker,
    /// "No card" (or an ability end played anyway).
    NoCard,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Attack => "attack",
            Kind::Throw => "throw",
            Kind::Block => "block",
            Kind::Dodge => "dodge",
            Kind::Joker => "Joker",
            Kind::NoCard => "no card",
        }
    }
    fn strikes(self) -> bool {
        matches!(self, Kind::Attack | Kind::Throw)
    }
}

/// The result of step 2-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum CombatResult {
    /// One player won combat with this kind of card.
    Won {
        /// The winner.
        winner: Seat,
        /// The winning card's kind.
        by: Kind,
    },
    /// Equal-speed attacks: both hit, no combos or pumps.
    Trade,
    /// Joker against Joker (§10.3): a drawn combat.
    JokerDraw,
    /// Nothing happens.
    Nothing,
}

/// Step 2-4 as the table screen shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatReport {
    /// Turn number.
    pub turn: u32,
    /// Each seat's card kind.
    pub kinds: [Kind; 2],
    /// Each seat's speed in tenths after speed changes (attacks and throws).
    pub speeds: [Option<i32>; 2],
    /// The result.
    pub result: CombatResult,
    /// A sentence for the log.
    pub text: String,
}

/// One move that hit this turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    /// Card id.
    pub card: String,
    /// The end used.
    pub end: End,
    /// True for a combo-phase move (4-2), false for the combat card.
    pub combo: bool,
}

/// Where a searched card comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pile {
    /// The deck (default).
    #[default]
    Deck,
    /// The discard pile.
    Discard,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// The character card's id.
    pub character: String,
    /// Starting HP, also the cap.
    pub max_hp: i32,
    /// Combo limit (combo points per turn).
    pub combo_limit: i32,
    /// Hand limit at 5-7.
    pub hand_limit: i32,
    /// HP.
    pub hp: i32,
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the deck.
    pub deck: i32,
    /// Card ids in the deck or the hand (the app cannot tell which), sorted.
    pub unseen: Vec<String>,
    /// The discard pile, in order.
    pub discard: Vec<String>,
    /// Cards on the table this turn (to the discard pile at 5-3).
    pub table: Vec<String>,
    /// Knocked down.
    pub knocked_down: bool,
    /// The combat card.
    pub play: Play,
    /// Speed change of the combat card this turn, in tenths (from abilities).
    pub speed_mod: i32,
    /// Extra Aces still to put out for the revealed (or last combo) super move.
    pub aces_pending: u8,
    /// The escape card.
    pub escape: Escape,
    /// Moves that hit this turn, in order.
    pub hits: Vec<Hit>,
    /// Combo points spent this turn.
    pub combo_points: i32,
    /// Longest chain of normal attacks this turn.
    pub chain: i32,
    /// Combat-phase damage dealt this turn (cannot be cancelled).
    pub combat_damage: i32,
    /// Combo-phase damage dealt this turn (moves, pumps; the blue burst cancels it).
    pub combo_damage: i32,
    /// Damage this player's blue burst cancelled this turn.
    pub cancelled: i32,
    /// Ace searches still open.
    pub aces_owed: u8,
    /// Knockdown property of the last move of this player that hit this turn.
    pub last_hit_knockdown: Option<bool>,
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Rules text.
    pub text: String,
    /// The card's data.
    pub data: YomiCard,
}

/// The whole state of a Yomi match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules.
    pub rules: Rules,
    /// The two players.
    pub players: [PlayerState; 2],
    /// Card data by id (shared: it never changes during a match).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// Turn number, from 1.
    pub turn: u32,
    /// Current step.
    pub step: Step,
    /// This turn's combat result (from 2-4).
    pub combat: Option<CombatReport>,
    /// The seat that declared "no card" first this turn (its opponent may re-choose).
    pub no_card_by: Option<Seat>,
}

fn top() -> End {
    End::Top
}

/// Reads a list of card ids given as a JSON list or as one comma-separated string
/// (`cards=YO-A06,YO-A19` in a match script).
fn card_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Raw::deserialize(d)? {
        Raw::One(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        Raw::Many(v) => v,
    })
}

/// A move at the Yomi table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    /// Closes an ability step (1-2, 2-3, 2-5, 5-2, 5-6), the gold burst (5-1) or the power-up
    /// step (5-5).
    Proceed,
    /// 2-1: place a combat card face down.
    FaceDown {
        /// Who.
        player: Seat,
    },
    /// 2-1: declare "no card".
    NoCard {
        /// Who.
        player: Seat,
    },
    /// 2-1: take the face-down card (or the "no card") back to choose again, after the opponent
    /// declared "no card".
    Rechoose {
        /// Who.
        player: Seat,
    },
    /// 2-2: turn the combat card over.
    Reveal {
        /// Whose card.
        player: Seat,
        /// Its id.
        card: String,
        /// The end facing the opponent (ignored for a Joker).
        #[serde(default = "top")]
        end: End,
    },
    /// 2-2 (or 4-2): put out one extra Ace for a super move that needs several.
    ExtraAce {
        /// Whose super move.
        player: Seat,
        /// The Ace's id.
        card: String,
    },
    /// 3-2: the loser puts a card face down (a Joker for the blue burst, or a bluff).
    Escape {
        /// The loser.
        player: Seat,
    },
    /// 3-2: the loser puts no escape card.
    NoEscape {
        /// The loser.
        player: Seat,
    },
    /// 4-2: the winner adds a move to the combo (a dodge winner: the one retaliation move).
    Combo {
        /// The winner.
        player: Seat,
        /// The card's id.
        card: String,
        /// The end used.
        #[serde(default = "top")]
        end: End,
    },
    /// 4-2: pump the latest move of the combo (or the combat card), discarding these cards.
    Pump {
        /// The winner.
        player: Seat,
        /// The cards paid.
        #[serde(deserialize_with = "card_list")]
        cards: Vec<String>,
    },
    /// 4-2: the winner ends the combo.
    EndCombo {
        /// The winner.
        player: Seat,
    },
    /// 4-3: the escape card is turned over.
    RevealEscape {
        /// The loser.
        player: Seat,
        /// Its id.
        card: String,
    },
    /// 5-1, 5-4, 5-5 (or an effect): take a card into hand from the deck or the discard pile.
    Search {
        /// Who.
        player: Seat,
        /// The card's id.
        card: String,
        /// Where from.
        #[serde(default)]
        from: Pile,
    },
    /// Gives up the Ace searches still open (none left, or not wanted).
    ForgoAces {
        /// Who.
        player: Seat,
    },
    /// 5-5: discard 2–4 cards of one rank to search 1–3 Aces.
    PowerUp {
        /// Who.
        player: Seat,
        /// The cards.
        #[serde(deserialize_with = "card_list")]
        cards: Vec<String>,
    },
    /// 5-7 (or an effect): discard cards from hand.
    Discard {
        /// Who.
        player: Seat,
        /// The cards.
        #[serde(deserialize_with = "card_list")]
        cards: Vec<String>,
    },
    /// An ability the players resolved by hand: its result.
    Effect {
        /// Whose ability.
        player: Seat,
        /// Change to the player's own HP (healing is capped at the starting HP).
        #[serde(default)]
        hp: i32,
        /// Change to the opponent's HP (ability damage: never cancelled).
        #[serde(default)]
        opp_hp: i32,
        /// Cards the player draws.
        #[serde(default)]
        draw: i32,
        /// Change to the player's combat-card speed, in tenths (negative: faster); before 2-4.
        #[serde(default)]
        speed: i32,
        /// Damage added to the player's combo this turn (cancelled by a blue burst); before 4-3.
        #[serde(default)]
        combo_damage: i32,
        /// What the ability did, in the players' words.
        #[serde(default)]
        note: String,
    },
}

/// One change of a Yomi state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A turn begins: per-turn values reset.
    TurnBegan(u32),
    /// A player drew a card.
    Drew(Seat),
    /// The match moves to a step.
    StepTo(Step),
    /// A card was placed face down (2-1).
    FaceDown(Seat),
    /// "No card" was declared (2-1).
    NoCard(Seat),
    /// The choice was taken back (2-1).
    Rechose(Seat),
    /// The combat card was revealed; extra Aces it needs.
    Revealed(Seat, String, End, u8),
    /// An extra Ace was put out.
    ExtraAce(Seat, String),
    /// Extra Aces to put out for a super move played in a combo.
    AcesPending(Seat, u8),
    /// The combat card's speed changed (tenths).
    SpeedChanged(Seat, i32),
    /// Step 2-4's result.
    CombatDecided(CombatReport),
    /// The combat card hit: its damage and knockdown property.
    CombatHit(Seat, i32, bool),
    /// Block damage dealt by the blocked attacker.
    ChipDamage(Seat, i32),
    /// The escape card was placed face down.
    EscapePlaced(Seat),
    /// No escape card.
    EscapeDeclined(Seat),
    /// The escape card was revealed.
    EscapeRevealed(Seat, String),
    /// The block card went back to hand (4-1).
    BlockReturned(Seat),
    /// A combo move hit: card, end, damage, combo points, knockdown.
    ComboHit(Seat, String, End, i32, i32, bool),
    /// A pump: cards paid and damage added.
    Pumped(Seat, Vec<String>, i32),
    /// Extra combo damage from an ability.
    ComboBonus(Seat, i32),
    /// The chain length this turn.
    ChainIs(Seat, i32),
    /// The blue burst cancelled the combo damage of the seat's opponent (the amount).
    Cancelled(Seat, i32),
    /// 4-4a: HP lost by each seat.
    Damaged([i32; 2]),
    /// 4-4b: the knockdown flags after the turn.
    Knockdown([bool; 2]),
    /// Ace searches granted.
    AcesOwed(Seat, u8),
    /// A card was searched into hand (true: it used an Ace search).
    Searched(Seat, String, Pile, bool),
    /// The open Ace searches were given up.
    AcesForgone(Seat),
    /// Cards discarded from hand (power-up, hand limit, effects).
    Discarded(Seat, Vec<String>),
    /// 5-3: the table's cards go to the discard piles.
    TableCleared,
    /// HP set (effects, with the cap applied).
    HpIs(Seat, i32),
    /// Manual: hand size.
    SetHand(Seat, i32),
    /// Manual: deck size.
    SetDeck(Seat, i32),
    /// Manual: knockdown flag.
    SetKnockdown(Seat, bool),
    /// Manual: combo points spent.
    SetComboPoints(Seat, i32),
    /// Manual: Ace searches open.
    SetAcesOwed(Seat, u8),
    /// Manual: damage cancelled.
    SetCancelled(Seat, i32),
    /// Manual: turn number.
    SetTurn(u32),
}

fn other(seat: Seat) -> Seat {
    1 - seat
}

fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(Impossible::new(format!(
            "Yomi has seats 0 and 1, not {seat}"
        )))
    }
}

/// Aces a chain combo of `n` normal attacks earns at 5-4 (digest §5; outside the seed: Y4).
pub fn aces_for_chain(n: i32) -> u8 {
    match n {
        3 => 1,
        4 => 2,
        5 => 3,
        n if n >= 6 => 4,
        _ => 0,
    }
}

/// Aces a power-up of `k` cards of one rank earns at 5-5 (digest §5; outside the seed: Y4).
pub fn aces_for_set(k: usize) -> u8 {
    match k {
        2 => 1,
        3 => 2,
        4 => 3,
        _ => 0,
    }
}

/// The longest run of normal attacks (ranks 2–10) in a row whose ranks rise by one (3-4-5).
pub fn chain_length(ranks: &[Option<u8>]) -> i32 {
    let mut best = 0;
    let mut run = 0;
    let mut prev: Option<u8> = None;
    for r in ranks {
        match (r, prev) {
            (Some(n), Some(p)) if *n == p + 1 => run += 1,
            (Some(_), _) => run = 1,
            (None, _) => run = 0,
        }
        prev = *r;
        best = best.max(run);
    }
    best
}

/// A header for a match with the catalogue's fixed decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::Yomi, catalogue, &names, &decks)
}

impl CardInfo {
    fn label(&self) -> String {
        if self.name_ja.is_empty() || self.name_ja == self.name_en {
            self.name_en.clone()
        } else {
            format!("{} ({})", self.name_en, self.name_ja)
        }
    }
}

impl State {
    fn info(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards
            .get(id)
            .ok_or_else(|| Impossible::new(format!("card `{id}` is in neither player's deck")))
    }

    fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }

    fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    fn is_joker(&self, id: &str) -> bool {
        matches!(
            self.cards.get(id).map(|c| &c.data),
            Some(YomiCard::Joker(_))
        )
    }

    fn rank(&self, id: &str) -> Option<Rank> {
        self.cards.get(id).and_then(|c| c.data.rank())
    }

    /// The end of a move card.
    pub fn end(&self, id: &str, end: End) -> Option<&MoveEnd> {
        match self.cards.get(id).map(|c| &c.data) {
            Some(YomiCard::Move(m)) => Some(m.end(end)),
            _ => None,
        }
    }

    /// The seat's revealed combat card and its end, if any.
    pub fn revealed(&self, seat: Seat) -> Option<(&str, End)> {
        match &self.players.get(seat)?.play {
            Play::Revealed { card, end } => Some((card.as_str(), *end)),
            _ => None,
        }
    }

    /// The seat's combat card in the matrix, and its speed in tenths after changes.
    pub fn kind(&self, seat: Seat) -> (Kind, Option<i32>) {
        let Some((card, end)) = self.revealed(seat) else {
            return (Kind::NoCard, None);
        };
        if self.is_joker(card) {
            return (Kind::Joker, None);
        }
        let Some(e) = self.end(card, end) else {
            return (Kind::NoCard, None);
        };
        let speed = e
            .speed
            .map(|s| i32::from(s.tenths()) + self.players[seat].speed_mod);
        let kind = match e.kind {
            MoveKind::Attack => Kind::Attack,
            MoveKind::Throw => Kind::Throw,
            MoveKind::Block => Kind::Block,
            MoveKind::Dodge => Kind::Dodge,
            MoveKind::Ability => Kind::NoCard,
        };
        (kind, speed)
    }

    fn unseen_count(&self, seat: Seat, id: &str) -> usize {
        self.players[seat]
            .unseen
            .iter()
            .filter(|c| c.as_str() == id)
            .count()
    }

    /// Checks that every card of `cards` is among the seat's unseen cards (copies counted) and
    /// that the hand holds that many.
    fn check_in_hand(&self, seat: Seat, cards: &[String]) -> Result<(), Impossible> {
        let p = &self.players[seat];
        let mut need: BTreeMap<&str, usize> = BTreeMap::new();
        for c in cards {
            self.info(c)?;
            *need.entry(c.as_str()).or_default() += 1;
        }
        for (id, n) in need {
            if self.unseen_count(seat, id) < n {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {} left (it is on the table or in the discard pile)",
                    p.name,
                    self.label(id)
                )));
            }
        }
        if (p.hand as usize) < cards.len() {
            return Err(Impossible::new(format!(
                "{} holds {} card(s), not {}",
                p.name,
                p.hand,
                cards.len()
            )));
        }
        Ok(())
    }

    /// Whether an ability step of this timing opens: a character, or a card on the table, has an
    /// ability of that timing (or the house rule opens every step).
    pub fn window(&self, timings: &[Timing]) -> bool {
        if self.rules.ability_windows == AbilityWindows::Always {
            return true;
        }
        let has = |abilities: &[Ability]| {
            abilities
                .iter()
                .any(|a| a.timing.is_some_and(|t| timings.contains(&t)))
        };
        self.players.iter().any(|p| {
            let character = matches!(
                self.cards.get(&p.character).map(|c| &c.data),
                Some(YomiCard::Character(c)) if has(&c.abilities)
            );
            let on_table = self.revealed_ends(p).into_iter().any(|e| has(&e.abilities));
            character || on_table
        })
    }

    /// The ends in play of a player: the combat card and the combo moves.
    fn revealed_ends<'a>(&'a self, p: &'a PlayerState) -> Vec<&'a MoveEnd> {
        let mut out = Vec::new();
        if let Play::Revealed { card, end } = &p.play
            && let Some(e) = self.end(card, *end)
        {
            out.push(e);
        }
        for h in p.hits.iter().filter(|h| h.combo) {
            if let Some(e) = self.end(&h.card, h.end) {
                out.push(e);
            }
        }
        out
    }

    /// The winner of this turn's combat, if one player won.
    pub fn winner(&self) -> Option<(Seat, Kind)> {
        match self.combat.as_ref().map(|c| c.result) {
            Some(CombatResult::Won { winner, by }) => Some((winner, by)),
            _ => None,
        }
    }

    /// The end of the latest move of a seat's combo (or its combat card): what a pump pumps.
    fn latest_move(&self, seat: Seat) -> Option<&MoveEnd> {
        let p = &self.players[seat];
        if let Some(h) = p.hits.last() {
            return self.end(&h.card, h.end);
        }
        self.revealed(seat).and_then(|(c, e)| self.end(c, e))
    }
}

/// Why the game ended, if it did: a KO, or a time out.
fn ended(state: &State) -> Option<bool> {
    if state.players.iter().any(|p| p.hp <= 0) {
        return Some(true);
    }
    let deck_out = state.players.iter().any(|p| p.deck <= 0);
    if state.step == Step::Over || (deck_out && state.rules.time_out == TimeOut::AtOnce) {
        return Some(false);
    }
    None
}

/// Runs events on a scratch copy so that later steps of one move see earlier ones.
struct Builder {
    state: State,
    events: Vec<Event>,
}

impl Builder {
    fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    fn over(&self) -> bool {
        self.state.step == Step::Over
    }

    /// Applies an event; ends the game at once on a KO or (by default) a deck at 0.
    fn push(&mut self, event: Event) {
        Yomi::apply(&mut self.state, &event);
        self.events.push(event);
        if !self.over() && ended(&self.state).is_some() {
            Yomi::apply(&mut self.state, &Event::StepTo(Step::Over));
            self.events.push(Event::StepTo(Step::Over));
        }
    }

    fn enter(&mut self, step: Step) {
        if !self.over() {
            self.push(Event::StepTo(step));
        }
    }

    fn draw(&mut self, seat: Seat, n: i32) {
        for _ in 0..n {
            if self.over() || self.state.players[seat].deck <= 0 {
                return;
            }
            self.push(Event::Drew(seat));
        }
    }

    /// 1-1 and 1-2: a turn begins.
    fn begin_turn(&mut self, turn: u32) {
        self.push(Event::TurnBegan(turn));
        if turn > 1 {
            self.draw(0, 1);
            self.draw(1, 1);
        }
        if self.state.window(&[Timing::DrawPhase]) && turn > 1 {
            self.enter(Step::DrawAbilities);
        } else {
            self.enter(Step::Select);
        }
    }

    /// After a reveal or an extra Ace: 2-3, or straight to 2-4.
    fn after_reveal(&mut self) {
        let done = (0..2).all(|s| {
            let p = &self.state.players[s];
            !matches!(p.play, Play::FaceDown)
                && (p.aces_pending == 0 || !can_put_ace(&self.state, s))
        });
        if !done {
            return;
        }
        if self.state.window(&[Timing::CombatReveal]) {
            self.enter(Step::RevealAbilities);
        } else {
            self.decide_combat();
        }
    }

    /// 2-4: the combat matrix; then 2-5 or the escape phase.
    fn decide_combat(&mut self) {
        let report = combat_report(&self.state);
        let result = report.result;
        self.push(Event::CombatDecided(report));
        let hit = |b: &mut Builder, seat: Seat| {
            if let Some((card, end)) = b.state.revealed(seat).map(|(c, e)| (c.to_owned(), e))
                && let Some(e) = b.state.end(&card, end)
            {
                let damage = i32::from(e.damage.unwrap_or(0));
                let kd = e.knockdown;
                b.push(Event::CombatHit(seat, damage, kd));
            }
        };
        match result {
            CombatResult::Won { winner, by } if by.strikes() => hit(self, winner),
            CombatResult::Trade => {
                hit(self, 0);
                hit(self, 1);
            }
            CombatResult::Won {
                winner,
                by: Kind::Block,
            } if self.state.rules.apply_block_damage => {
                let attacker = other(winner);
                let chip = self
                    .state
                    .revealed(attacker)
                    .and_then(|(c, e)| self.state.end(c, e))
                    .and_then(|e| e.block_damage)
                    .map_or(0, i32::from);
                if chip > 0 {
                    self.push(Event::ChipDamage(attacker, chip));
                }
            }
            _ => {}
        }
        if self.state.window(&[Timing::DuringCombat]) {
            self.enter(Step::DuringCombat);
        } else {
            self.escape_phase();
        }
    }

    /// 3-1 and 3-2.
    fn escape_phase(&mut self) {
        if self.over() {
            return;
        }
        if self.state.rules.normal_attack_draw {
            let result = self.state.combat.as_ref().map(|c| c.result);
            for seat in 0..2 {
                let normal_attack = self.state.revealed(seat).is_some_and(|(c, e)| {
                    matches!(self.state.rank(c), Some(Rank::Number(_)))
                        && self
                            .state
                            .end(c, e)
                            .is_some_and(|e| e.kind == MoveKind::Attack)
                });
                let hit_or_blocked = match result {
                    Some(CombatResult::Trade) => true,
                    Some(CombatResult::Won { winner, by }) => {
                        (winner == seat && by.strikes())
                            || (winner == other(seat) && by == Kind::Block)
                    }
                    _ => false,
                };
                if normal_attack && hit_or_blocked {
                    self.draw(seat, 1);
                }
            }
        }
        if self.over() {
            return;
        }
        let offered = match self.state.winner() {
            Some((w, by)) => {
                let may_combo =
                    by.strikes() || (self.state.rules.escape_after_any_win && by == Kind::Dodge);
                may_combo && self.state.players[other(w)].hand > 0
            }
            None => false,
        };
        if offered {
            self.enter(Step::Escape);
        } else {
            self.combo_phase();
        }
    }

    /// 4-1 and 4-2.
    fn combo_phase(&mut self) {
        if self.over() {
            return;
        }
        let winner = self.state.winner();
        for seat in 0..2 {
            let blocked = self.state.kind(seat).0 == Kind::Block;
            let won = winner.is_some_and(|(w, _)| w == seat);
            let lost = winner.is_some_and(|(w, _)| w != seat);
            let returns = if self.state.rules.block_returns_unless_lost {
                !lost
            } else {
                won
            };
            if blocked && returns {
                self.push(Event::BlockReturned(seat));
            }
            if blocked && won {
                self.draw(seat, 1);
            }
        }
        match winner {
            Some((_, by)) if by.strikes() || by == Kind::Dodge => self.enter(Step::Combo),
            _ => self.blue_burst(),
        }
    }

    /// 4-3: waits for the escape card, if one was placed.
    fn blue_burst(&mut self) {
        if self.over() {
            return;
        }
        if (0..2).any(|s| self.state.players[s].escape == Escape::FaceDown) {
            self.enter(Step::BlueBurst);
        } else {
            self.damage();
        }
    }

    /// 4-4a and 4-4b, then 5-1.
    fn damage(&mut self) {
        if self.over() {
            return;
        }
        let dealt = |p: &PlayerState| p.combat_damage + p.combo_damage;
        let lost = [dealt(&self.state.players[1]), dealt(&self.state.players[0])];
        if lost != [0, 0] {
            self.push(Event::Damaged(lost));
        }
        if self.over() {
            return;
        }
        let mut down = [false, false];
        for seat in 0..2 {
            if self.state.players[seat].last_hit_knockdown == Some(true) {
                down[other(seat)] = true;
            }
        }
        if down == [true, true] && self.state.rules.double_knockdown_cancels {
            down = [false, false];
        }
        self.push(Event::Knockdown(down));
        // 5-1 gold burst.
        let result = self.state.combat.as_ref().map(|c| c.result);
        let mut any = false;
        for seat in 0..2 {
            let joker = self.state.kind(seat).0 == Kind::Joker;
            let won_or_drew = match result {
                Some(CombatResult::Won { winner, .. }) => winner == seat,
                Some(CombatResult::JokerDraw) => true,
                _ => false,
            };
            if joker && won_or_drew {
                self.push(Event::AcesOwed(seat, 2));
                any = true;
            }
        }
        if any {
            self.enter(Step::GoldBurst);
        } else {
            self.end_of_combat();
        }
    }

    /// 5-2, or straight to 5-3.
    fn end_of_combat(&mut self) {
        if self.state.window(&[Timing::EndOfCombat, Timing::FullCombo]) {
            self.enter(Step::EndOfCombat);
        } else {
            self.power_up();
        }
    }

    /// 5-3 and 5-4; 5-5 waits for the players.
    fn power_up(&mut self) {
        if self.over() {
            return;
        }
        self.push(Event::TableCleared);
        for seat in 0..2 {
            let n = aces_for_chain(self.state.players[seat].chain);
            if n > 0 {
                self.push(Event::AcesOwed(seat, n));
            }
        }
        self.enter(Step::PowerUp);
    }

    /// 5-6, or straight to 5-7.
    fn end_of_turn(&mut self) {
        if self.state.window(&[Timing::EndOfTurn]) {
            self.enter(Step::EndOfTurn);
        } else {
            self.hand_limit();
        }
    }

    /// 5-7: waits while a hand is over its limit.
    fn hand_limit(&mut self) {
        if self.over() {
            return;
        }
        let over =
            self.state.rules.hand_limit && self.state.players.iter().any(|p| p.hand > p.hand_limit);
        if over {
            self.enter(Step::HandLimit);
        } else {
            self.next_turn();
        }
    }

    /// 5-8.
    fn next_turn(&mut self) {
        if self.over() {
            return;
        }
        if self.state.players.iter().any(|p| p.deck <= 0) {
            self.push(Event::StepTo(Step::Over));
            return;
        }
        self.begin_turn(self.state.turn + 1);
    }

    fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
}

/// Step 2-4: who wins combat (digest §5).
fn combat_report(state: &State) -> CombatReport {
    let (ka, sa) = state.kind(0);
    let (kb, sb) = state.kind(1);
    let rules = &state.rules;
    let won = |winner: Seat, by: Kind| CombatResult::Won { winner, by };
    // The result from seat 0's side; `flip` reads a cell from seat 1's side.
    fn cell(
        a: Kind,
        b: Kind,
        sa: Option<i32>,
        sb: Option<i32>,
        rules: &Rules,
    ) -> Option<CombatResult> {
        use Kind::*;
        let a_wins = Some(CombatResult::Won { winner: 0, by: a });
        let b_wins = Some(CombatResult::Won { winner: 1, by: b });
        let strikes_beat_nothing = rules.no_card == NoCardRule::LosesToStrikes;
        Some(match (a, b) {
            (Attack, Attack) | (Throw, Throw) => {
                let (x, y) = (sa.unwrap_or(0), sb.unwrap_or(0));
                if x < y {
                    return a_wins;
                } else if y < x {
                    return b_wins;
                } else if a == Attack {
                    CombatResult::Trade
                } else {
                    CombatResult::Nothing
                }
            }
            (Attack, Throw) | (Throw, Block) | (Throw, Dodge) => return a_wins,
            (Attack, Block) | (Attack, Dodge) | (Attack, Joker) | (Throw, Joker) => return b_wins,
            (Block, Joker) | (Dodge, Joker) => return a_wins,
            (Joker, Joker) => match rules.joker_vs_joker {
                JokerTie::Draw => CombatResult::JokerDraw,
                JokerTie::Nothing => CombatResult::Nothing,
            },
            (Attack | Throw | Joker, NoCard) if strikes_beat_nothing => return a_wins,
            (Block | Dodge | NoCard, Block | Dodge | NoCard) => CombatResult::Nothing,
            (Attack | Throw | Joker, NoCard) => CombatResult::Nothing,
            _ => return None,
        })
    }
    let result = cell(ka, kb, sa, sb, rules)
        .or_else(|| {
            cell(kb, ka, sb, sa, rules).map(|r| match r {
                CombatResult::Won { winner, by } => won(other(winner), by),
                r => r,
            })
        })
        .unwrap_or(CombatResult::Nothing);
    let show = |k: Kind, s: Option<i32>| match s {
        Some(s) => format!("{} (speed {}.{})", k.label(), s / 10, (s % 10).abs()),
        None => k.label().to_owned(),
    };
    let text = format!(
        "{} {} against {} {}: {}",
        state.name(0),
        show(ka, sa),
        state.name(1),
        show(kb, sb),
        match result {
            CombatResult::Won { winner, by } =>
                format!("{} wins combat with the {}", state.name(winner), by.label()),
            CombatResult::Trade => "equal speed: both hit, no combos or pumps".to_owned(),
            CombatResult::JokerDraw => "Joker against Joker: a drawn combat".to_owned(),
            CombatResult::Nothing => "nothing happens".to_owned(),
        }
    );
    CombatReport {
        turn: state.turn,
        kinds: [ka, kb],
        speeds: [sa, sb],
        result,
        text,
    }
}

fn step_text(state: &State) -> String {
    let t = state.turn;
    match state.step {
        Step::DrawAbilities => format!("turn {t} 1-2: [Draw Phase] abilities"),
        Step::Select => format!("turn {t} 2-1: both choose a combat card face down (or no card)"),
        Step::Reveal => format!("turn {t} 2-2: both reveal the combat card"),
        Step::RevealAbilities => format!("turn {t} 2-3: [Combat Reveal] abilities"),
        Step::DuringCombat => format!("turn {t} 2-5: [During Combat] abilities"),
        Step::Escape => format!("turn {t} 3-2: the loser may put an escape card face down"),
        Step::Combo => format!("turn {t} 4-2: the winner pumps and combos"),
        Step::BlueBurst => format!("turn {t} 4-3: reveal the escape card (blue burst)"),
        Step::GoldBurst => format!("turn {t} 5-1: gold burst: search up to 2 Aces"),
        Step::EndOfCombat => format!("turn {t} 5-2: [End of Combat] and [Full Combo] abilities"),
        Step::PowerUp => format!("turn {t} 5-4/5-5: chain-combo Aces and power-ups"),
        Step::EndOfTurn => format!("turn {t} 5-6: [End of Turn] abilities"),
        Step::HandLimit => format!("turn {t} 5-7: discard down to the hand limit"),
        Step::Over => "the end of the game".to_owned(),
    }
}

fn wrong_step(state: &State, what: &str, when: &str, section: &str) -> Violation {
    Violation::new(
        "yomi.phase-order",
        format!(
            "{what} belongs to {when}; the game is at {}.",
            step_text(state)
        ),
        &format!("yomi.md §3 {section}; {SEED} {section}"),
    )
}

fn not_now(state: &State, what: &str) -> Impossible {
    Impossible::new(format!("{what} is not open at {}", step_text(state)))
}

impl Game for Yomi {
    const ID: GameId = GameId::Yomi;
    type State = State;
    type Move = Move;
    type Event = Event;
    type Rules = Rules;

    fn setup(
        players: &[PlayerConfig],
        rules: &Rules,
        catalogue: &Catalogue,
    ) -> Result<State, SetupError> {
        if players.len() != 2 {
            return Err(SetupError::PlayerCount {
                game: GameId::Yomi,
                expected: "2".into(),
                got: players.len(),
            });
        }
        let mut cards = BTreeMap::new();
        let mut seats = Vec::new();
        for p in players {
            let unknown = |card: &str| SetupError::UnknownCard {
                player: p.name.clone(),
                card: card.to_owned(),
                catalogue: catalogue.set.id.clone(),
            };
            let mut copies: BTreeMap<&str, u16> = BTreeMap::new();
            let mut main = Vec::new();
            let mut jokers = 0;
            for id in &p.deck {
                let Some(Card {
                    name_ja,
                    name_en,
                    text,
                    data: CardData::Yomi(data),
                    ..
                }) = catalogue.card(id)
                else {
                    return Err(unknown(id));
                };
                if matches!(data, YomiCard::Joker(_)) {
                    jokers += 1;
                }
                let n = copies.entry(id.as_str()).or_default();
                *n += 1;
                main.push(CopyRef {
                    card: id.clone(),
                    copy: *n,
                });
                cards.insert(
                    id.clone(),
                    CardInfo {
                        name_ja: name_ja.clone(),
                        name_en: name_en.clone(),
                        text: text.clone(),
                        data: data.clone(),
                    },
                );
            }
            main.sort();
            let deck = Deck {
                game: GameId::Yomi,
                set: catalogue.set.id.clone(),
                name: p.deck_name.clone(),
                owner: p.name.clone(),
                variant: (jokers == 0).then(|| crate::catalogue::yomi::BEGINNER.to_owned()),
                main,
                extra: Vec::new(),
            };
            let violations = crate::catalogue::yomi::check_deck(&deck, catalogue);
            if !violations.is_empty() {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations,
                });
            }
            let character = p
                .deck
                .iter()
                .find_map(|id| match catalogue.card(id)?.yomi()? {
                    YomiCard::Character(c) => Some((id.clone(), c.clone())),
                    _ => None,
                });
            let Some((character_id, ch)) = character else {
                return Err(unknown("(a character card)"));
            };
            let mut unseen: Vec<String> = p
                .deck
                .iter()
                .filter(|id| **id != character_id)
                .cloned()
                .collect();
            unseen.sort();
            let size = unseen.len() as i32;
            let hand = START_HAND.min(size);
            seats.push(PlayerState {
                name: p.name.clone(),
                character: character_id,
                max_hp: i32::from(ch.hp),
                combo_limit: i32::from(ch.combo_points),
                hand_limit: i32::from(ch.hand_limit),
                hp: i32::from(ch.hp),
                hand,
                deck: size - hand,
                unseen,
                discard: Vec::new(),
                table: Vec::new(),
                knocked_down: false,
                play: Play::Empty,
                speed_mod: 0,
                aces_pending: 0,
                escape: Escape::None,
                hits: Vec::new(),
                combo_points: 0,
                chain: 0,
                combat_damage: 0,
                combo_damage: 0,
                cancelled: 0,
                aces_owed: 0,
                last_hit_knockdown: None,
            });
        }
        let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
            game: GameId::Yomi,
            expected: "2".into(),
            got: players.len(),
        })?;
        Ok(State {
            rules: rules.clone(),
            players: [a, b],
            cards: Arc::new(cards),
            turn: 1,
            step: Step::Select,
            combat: None,
            no_card_by: None,
        })
    }

    fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
        if state.step == Step::Over {
            return Err(Impossible::new("the game is over"));
        }
        let mut b = Builder::new(state);
        let mut v = Vec::new();
        match mv {
            Move::Proceed => match state.step {
                Step::DrawAbilities => b.enter(Step::Select),
                Step::RevealAbilities => b.decide_combat(),
                Step::DuringCombat => b.escape_phase(),
                Step::GoldBurst | Step::PowerUp => {
                    for p in &state.players {
                        if p.aces_owed > 0 {
                            v.push(Violation::new(
                                "yomi.ace-search-open",
                                format!(
                                    "{} may still search {} Ace(s): search them, or give them up (forgo-aces) if none is left.",
                                    p.name, p.aces_owed
                                ),
                                "yomi.md §3 5-1/5-4/5-5, §10.10; seed 004 5-1, 5-4, 5-5",
                            ));
                        }
                    }
                    for s in 0..2 {
                        if state.players[s].aces_owed > 0 {
                            b.push(Event::AcesForgone(s));
                        }
                    }
                    if state.step == Step::GoldBurst {
                        b.end_of_combat();
                    } else {
                        b.end_of_turn();
                    }
                }
                Step::EndOfCombat => b.power_up(),
                Step::EndOfTurn => b.hand_limit(),
                _ => return Err(not_now(state, "going on to the next step")),
            },
            Move::FaceDown { player } | Move::NoCard { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if state.step != Step::Select {
                    return Err(not_now(state, "choosing a combat card"));
                }
                if p.play != Play::Empty {
                    return Err(Impossible::new(format!(
                        "{} already chose this turn (re-choose only after the opponent's \"no card\")",
                        p.name
                    )));
                }
                if matches!(mv, Move::FaceDown { .. }) {
                    if p.hand < 1 {
                        return Err(Impossible::new(format!("{} has no card in hand", p.name)));
                    }
                    b.push(Event::FaceDown(*player));
                } else {
                    b.push(Event::NoCard(*player));
                }
                if b.state.players.iter().all(|p| p.play != Play::Empty) {
                    b.enter(Step::Reveal);
                    b.after_reveal();
                }
            }
            Move::Rechoose { player } => {
                check_seat(*player)?;
                let p = &state.players[*player];
                if !matches!(state.step, Step::Select | Step::Reveal)
                    || !matches!(p.play, Play::FaceDown | Play::NoCard)
                {
                    return Err(Impossible::new(format!(
                        "{} has no unrevealed choice to take back",
                        p.name
                    )));
                }
                if state.no_card_by != Some(other(*player)) {
                    v.push(Violation::new(
                        "yomi.rechoose",
                        format!(
                            "{} may choose again only after {} declared \"no card\".",
                            p.name,
                            state.name(other(*player))
                        ),
                        "yomi.md §3 2-1; seed 004 2-1 ノーカード",
                    ));
                }
                b.push(Event::Rechose(*player));
                if state.step == Step::Reveal {
                    b.push(Event::StepTo(Step::Select));
                }
            }
            Move::Reveal { player, card, end } => {
                check_seat(*player)?;
                let info = state.info(card)?;
                let p = &state.players[*player];
                if state.step != Step::Reveal || p.play != Play::FaceDown {
                    return Err(Impossible::new(format!(
                        "{} has no face-down combat card to reveal",
                        p.name
                    )));
                }
                if state.unseen_count(*player, card) == 0 {
                    return Err(Impossible::new(format!(
                        "{} has no unplayed copy of {}",
                        p.name,
                        info.label()
                    )));
                }
                let mut extra = 0;
                match &info.data {
                    YomiCard::Character(_) => {
                        return Err(Impossible::new(format!(
                            "{} is a character card, set aside at setup",
                            info.label()
                        )));
                    }
                    YomiCard::Joker(_) => {}
                    YomiCard::Move(m) => {
                        let e = m.end(*end);
                        if e.kind == MoveKind::Ability {
                            v.push(Violation::new(
                                "yomi.not-a-combat-move",
                                format!(
                                    "The {} end of {} is an ability, not a combat move: reveal the other end (played anyway, it counts as \"no card\").",
                                    end_name(*end),
                                    info.label()
                                ),
                                "yomi.md §5, §6; docs/catalogue-yomi.md (ability ends)",
                            ));
                        }
                        let need = e.extra_aces();
                        if need > 0 {
                            let aces = aces_available(state, *player, card);
                            if aces < usize::from(need) {
                                v.push(Violation::new(
                                    "yomi.extra-aces",
                                    format!(
                                        "{} needs {} Aces in all: {} more Ace(s) to put out, and {} has only {aces} other Ace(s) unplayed.",
                                        e.name_en, e.aces, need, p.name
                                    ),
                                    "yomi.md §3 2-2; seed 004 2-2",
                                ));
                            }
                            extra = need.min(u8::try_from(aces).unwrap_or(u8::MAX));
                        }
                    }
                }
                b.push(Event::Revealed(*player, card.clone(), *end, extra));
                b.after_reveal();
            }
            Move::ExtraAce { player, card } => {
                check_seat(*player)?;
                let info = state.info(card)?;
                let p = &state.players[*player];
                if p.aces_pending == 0 {
                    return Err(Impossible::new(format!(
                        "{} has no super move waiting for extra Aces",
                        p.name
                    )));
                }
                if info.data.rank() != Some(Rank::Ace) {
                    v.push(Violation::new(
                        "yomi.extra-aces",
                        format!("{} is not an Ace.", info.label()),
                        "yomi.md §3 2-2; seed 004 2-2",
                    ));
                }
                state.check_in_hand(*player, std::slice::from_ref(card))?;
                b.push(Event::ExtraAce(*player, card.clone()));
                if state.step == Step::Reveal {
                    b.after_reveal();
                }
            }
            Move::Escape { player } | Move::NoEscape { player } => {
                check_seat(*player)?;
                let loser = state.winner().map(|(w, _)| other(w));
                if state.step != Step::Escape || loser != Some(*player) {
                    return Err(not_now(
                        state,
                        &format!("an escape card for {}", state.name(*player)),
                    ));
                }
                if matches!(mv, Move::Escape { .. }) {
                    if state.players[*player].hand < 1 {
                        return Err(Impossible::new(format!(
                            "{} has no card in hand",
                            state.name(*player)
                        )));
                    }
                    b.push(Event::EscapePlaced(*player));
                } else {
                    b.push(Event::EscapeDeclined(*player));
                }
                b.combo_phase();
            }
            Move::Combo { player, card, end } => {
                check_seat(*player)?;
                let Some((winner, by)) = state.winner() else {
                    return Err(not_now(state, "a combo"));
                };
                if state.step != Step::Combo || winner != *player {
                    return Err(not_now(
                        state,
                        &format!("a combo for {}", state.name(*player)),
                    ));
                }
                let info = state.info(card)?;
                state.check_in_hand(*player, std::slice::from_ref(card))?;
                let p = &state.players[*player];
                let Some(e) = state.end(card, *end) else {
                    return Err(Impossible::new(format!(
                        "{} has no move to combo with",
                        info.label()
                    )));
                };
                if !e.kind.strikes() {
                    v.push(Violation::new(
                        "yomi.combo-move",
                        format!(
                            "A combo is made of attacks and throws; the {} end of {} is a {}.",
                            end_name(*end),
                            info.label(),
                            e.kind.as_str()
                        ),
                        "yomi.md §5; outside the seed: Y3",
                    ));
                }
                let retaliations = p.hits.iter().filter(|h| h.combo).count();
                if by == Kind::Dodge && retaliations >= 1 {
                    v.push(Violation::new(
                        "yomi.dodge-retaliation",
                        format!(
                            "A dodge winner retaliates with one attack or throw only; {} already did.",
                            p.name
                        ),
                        "yomi.md §5, §10.8; outside the seed: Y3",
                    ));
                }
                let points = i32::from(e.combo_points.unwrap_or(0));
                let first =
                    if state.rules.combat_card_counts && p.hits.len() == 1 && by != Kind::Dodge {
                        state
                            .latest_move(*player)
                            .and_then(|e| e.combo_points)
                            .map_or(0, i32::from)
                    } else {
                        0
                    };
                let total = p.combo_points + first + points;
                if state.rules.check_combo_limit && total > p.combo_limit {
                    v.push(Violation::new(
                        "yomi.combo-limit",
                        format!(
                            "{}'s combo would cost {total} combo points; the limit is {}.",
                            p.name, p.combo_limit
                        ),
                        "yomi.md §4, §10.9; outside the seed: Y4",
                    ));
                }
                if e.extra_aces() > 0
                    && aces_available(state, *player, card) < usize::from(e.extra_aces())
                {
                    v.push(Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} needs {} Aces in all, and {} has too few other Aces unplayed.",
                            e.name_en, e.aces, p.name
                        ),
                        "yomi.md §3 2-2; seed 004 2-2",
                    ));
                }
                b.push(Event::ComboHit(
                    *player,
                    card.clone(),
                    *end,
                    i32::from(e.damage.unwrap_or(0)),
                    first + points,
                    e.knockdown,
                ));
                let extra = e
                    .extra_aces()
                    .min(u8::try_from(aces_available(state, *player, card)).unwrap_or(u8::MAX));
                if extra > 0 {
                    b.push(Event::AcesPending(*player, extra));
                }
                let chain = chain_of(&b.state, *player);
                b.push(Event::ChainIs(*player, chain));
            }
            Move::Pump { player, cards } => {
                check_seat(*player)?;
                if state.step != Step::Combo || state.winner().map(|w| w.0) != Some(*player) {
                    return Err(not_now(
                        state,
                        &format!("a pump for {}", state.name(*player)),
                    ));
                }
                state.check_in_hand(*player, cards)?;
                let latest = state.latest_move(*player);
                let pump = latest.and_then(|e| e.pump);
                let name = latest.map(|e| e.name_en.clone()).unwrap_or_default();
                match pump {
                    None => v.push(Violation::new(
                        "yomi.no-pump",
                        format!("{name} has no pump."),
                        "yomi.md §6; outside the seed: Y4",
                    )),
                    Some(pm) if cards.len() != usize::from(pm.cost) => v.push(Violation::new(
                        "yomi.pump-cost",
                        format!(
                            "A pump of {name} costs {} card(s), not {}.",
                            pm.cost,
                            cards.len()
                        ),
                        "yomi.md §6; outside the seed: Y4",
                    )),
                    Some(_) => {}
                }
                let damage = pump.map_or(0, |p| i32::from(p.damage));
                b.push(Event::Pumped(*player, cards.clone(), damage));
            }
            Move::EndCombo { player } => {
                check_seat(*player)?;
                if state.step != Step::Combo || state.winner().map(|w| w.0) != Some(*player) {
                    return Err(not_now(state, "ending a combo"));
                }
                if state.players[*player].aces_pending > 0 && can_put_ace(state, *player) {
                    v.push(Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} still has {} extra Ace(s) to put out for the super move.",
                            state.name(*player),
                            state.players[*player].aces_pending
                        ),
                        "yomi.md §3 2-2; seed 004 2-2",
                    ));
                }
                b.blue_burst();
            }
            Move::RevealEscape { player, card } => {
                check_seat(*player)?;
                if state.step != Step::BlueBurst
                    || state.players[*player].escape != Escape::FaceDown
                {
                    return Err(Impossible::new(format!(
                        "{} has no escape card face down",
                        state.name(*player)
                    )));
                }
                state.info(card)?;
                if state.unseen_count(*player, card) == 0 {
                    return Err(Impossible::new(format!(
                        "{} has no unplayed copy of {}",
                        state.name(*player),
                        state.label(card)
                    )));
                }
                b.push(Event::EscapeRevealed(*player, card.clone()));
                let combo = state.players[other(*player)].combo_damage;
                if state.is_joker(card) && combo > 0 {
                    b.push(Event::Cancelled(*player, combo));
                    b.draw(*player, 2);
                }
                b.damage();
            }
            Move::Search { player, card, from } => {
                check_seat(*player)?;
                let info = state.info(card)?;
                let p = &state.players[*player];
                match from {
                    Pile::Deck => {
                        if state.unseen_count(*player, card) == 0 {
                            return Err(Impossible::new(format!(
                                "{} has no copy of {} left in the deck or hand",
                                p.name,
                                info.label()
                            )));
                        }
                        if p.deck < 1 {
                            return Err(Impossible::new(format!("{}'s deck is empty", p.name)));
                        }
                    }
                    Pile::Discard => {
                        if !p.discard.contains(card) {
                            return Err(Impossible::new(format!(
                                "{} is not in {}'s discard pile",
                                info.label(),
                                p.name
                            )));
                        }
                    }
                }
                let is_ace = info.data.rank() == Some(Rank::Ace);
                if !is_ace {
                    v.push(Violation::new(
                        "yomi.search-not-ace",
                        format!(
                            "Only Aces are searched for (gold burst, chain combo, power-up); {} is not an Ace.",
                            info.label()
                        ),
                        "yomi.md §3 5-1, 5-4, 5-5; seed 004 5-1, 5-4, 5-5",
                    ));
                } else if p.aces_owed == 0 {
                    v.push(Violation::new(
                        "yomi.search-not-owed",
                        format!("{} has no Ace search open now.", p.name),
                        "yomi.md §3 5-1, 5-4, 5-5; seed 004 5-1, 5-4, 5-5",
                    ));
                }
                b.push(Event::Searched(
                    *player,
                    card.clone(),
                    *from,
                    is_ace && p.aces_owed > 0,
                ));
            }
            Move::ForgoAces { player } => {
                check_seat(*player)?;
                if state.players[*player].aces_owed == 0 {
                    return Err(Impossible::new(format!(
                        "{} has no Ace search open",
                        state.name(*player)
                    )));
                }
                b.push(Event::AcesForgone(*player));
            }
            Move::PowerUp { player, cards } => {
                check_seat(*player)?;
                state.check_in_hand(*player, cards)?;
                if state.step != Step::PowerUp {
                    v.push(wrong_step(state, "A power-up", "step 5-5", "5-5"));
                }
                let ranks: Vec<Option<Rank>> = cards.iter().map(|c| state.rank(c)).collect();
                let k = cards.len();
                if !(2..=4).contains(&k) {
                    v.push(Violation::new(
                        "yomi.power-up-size",
                        format!(
                            "A power-up discards 2, 3 or 4 cards of one rank (for 1, 2 or 3 Aces), not {k}."
                        ),
                        "yomi.md §5 5-5; seed 004 5-5; outside the seed: Y4",
                    ));
                }
                let first = ranks.first().copied().flatten();
                if first.is_none() || ranks.iter().any(|r| *r != first) {
                    let shown: Vec<String> = ranks
                        .iter()
                        .map(|r| r.map_or_else(|| "Joker".to_owned(), |r| r.to_string()))
                        .collect();
                    v.push(Violation::new(
                        "yomi.power-up-rank",
                        format!(
                            "A power-up discards cards of the same rank; these are {}.",
                            shown.join(", ")
                        ),
                        "yomi.md §3 5-5; seed 004 5-5 同数値のカード",
                    ));
                }
                b.push(Event::Discarded(*player, cards.clone()));
                let n = aces_for_set(k);
                if n > 0 {
                    b.push(Event::AcesOwed(*player, n));
                }
            }
            Move::Discard { player, cards } => {
                check_seat(*player)?;
                if cards.is_empty() {
                    return Err(Impossible::new("name the cards to discard"));
                }
                state.check_in_hand(*player, cards)?;
                let p = &state.players[*player];
                if state.step == Step::HandLimit {
                    let excess = (p.hand - p.hand_limit).max(0);
                    if cards.len() as i32 > excess {
                        v.push(Violation::new(
                            "yomi.hand-limit",
                            format!(
                                "{} holds {} cards: discard down to {} ({excess} card(s)), not {}.",
                                p.name,
                                p.hand,
                                p.hand_limit,
                                cards.len()
                            ),
                            "yomi.md §3 5-7; seed 004 5-7",
                        ));
                    }
                } else {
                    v.push(wrong_step(
                        state,
                        "Discarding from hand",
                        "step 5-7 (or an ability's text)",
                        "5-7",
                    ));
                }
                b.push(Event::Discarded(*player, cards.clone()));
                if state.step == Step::HandLimit
                    && b.state.players.iter().all(|p| p.hand <= p.hand_limit)
                {
                    b.next_turn();
                }
            }
            Move::Effect {
                player,
                hp,
                opp_hp,
                draw,
                speed,
                combo_damage,
                ..
            } => {
                check_seat(*player)?;
                if [*hp, *opp_hp, *speed, *combo_damage]
                    .iter()
                    .any(|x| x.abs() > MAX_CHANGE)
                {
                    return Err(Impossible::new(format!(
                        "an effect changes a number by at most ±{MAX_CHANGE}"
                    )));
                }
                if !(0..=MAX_EFFECT_DRAW).contains(draw) {
                    return Err(Impossible::new(format!(
                        "an effect draws 0 to {MAX_EFFECT_DRAW} cards, not {draw}"
                    )));
                }
                if *speed != 0 {
                    let before_24 = matches!(
                        state.step,
                        Step::DrawAbilities | Step::Select | Step::Reveal | Step::RevealAbilities
                    );
                    if !before_24 {
                        v.push(Violation::new(
                            "yomi.effect-timing",
                            "A speed change matters only before the combat winner is decided (2-4).",
                            "yomi.md §3 2-3, 2-4",
                        ));
                    }
                }
                if *combo_damage != 0
                    && !matches!(
                        state.step,
                        Step::RevealAbilities
                            | Step::DuringCombat
                            | Step::Escape
                            | Step::Combo
                            | Step::BlueBurst
                    )
                {
                    v.push(Violation::new(
                        "yomi.effect-timing",
                        "Combo damage is added before the blue burst and the damage step (4-3, 4-4).",
                        "yomi.md §3 4-2..4-4",
                    ));
                }
                let cap = |p: &PlayerState, delta: i32| {
                    let v = p.hp + delta;
                    if state.rules.hp_cap && delta > 0 {
                        v.min(p.max_hp.max(p.hp))
                    } else {
                        v
                    }
                };
                if *speed != 0 {
                    b.push(Event::SpeedChanged(*player, *speed));
                }
                if *combo_damage != 0 {
                    b.push(Event::ComboBonus(*player, *combo_damage));
                }
                let (me, them) = (&state.players[*player], &state.players[other(*player)]);
                let new = [
                    (*player, cap(me, *hp), *hp),
                    (other(*player), cap(them, *opp_hp), *opp_hp),
                ];
                let changes: Vec<Event> = new
                    .iter()
                    .filter(|(_, _, d)| *d != 0)
                    .map(|(s, v, _)| Event::HpIs(*s, *v))
                    .collect();
                if changes.len() == 2 {
                    // Both at once, so that a double KO is seen as one.
                    if let [Event::HpIs(s0, v0), Event::HpIs(s1, v1)] = changes.as_slice() {
                        let mut lost = [0; 2];
                        lost[*s0] = state.players[*s0].hp - v0;
                        lost[*s1] = state.players[*s1].hp - v1;
                        b.push(Event::Damaged(lost));
                    }
                } else {
                    for e in changes {
                        b.push(e);
                    }
                }
                b.draw(*player, *draw);
            }
        }
        Ok(b.done(v))
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::TurnBegan(turn) => {
                state.turn = *turn;
                state.combat = None;
                state.no_card_by = None;
                for p in &mut state.players {
                    p.play = Play::Empty;
                    p.speed_mod = 0;
                    p.aces_pending = 0;
                    p.escape = Escape::None;
                    p.hits.clear();
                    p.combo_points = 0;
                    p.chain = 0;
                    p.combat_damage = 0;
                    p.combo_damage = 0;
                    p.cancelled = 0;
                    p.aces_owed = 0;
                    p.last_hit_knockdown = None;
                }
            }
            Event::Drew(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand += 1;
                    p.deck -= 1;
                }
            }
            Event::StepTo(step) => state.step = *step,
            Event::FaceDown(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.play = Play::FaceDown;
                    p.hand -= 1;
                }
            }
            Event::NoCard(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.play = Play::NoCard;
                }
                if state.no_card_by.is_none() {
                    state.no_card_by = Some(*seat);
                }
            }
            Event::Rechose(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    if p.play == Play::FaceDown {
                        p.hand += 1;
                    }
                    p.play = Play::Empty;
                }
                if state.no_card_by == Some(*seat) {
                    state.no_card_by = None;
                }
            }
            Event::Revealed(seat, card, end, extra) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    take(&mut p.unseen, card);
                    p.table.push(card.clone());
                    p.play = Play::Revealed {
                        card: card.clone(),
                        end: *end,
                    };
                    p.aces_pending = *extra;
                }
            }
            Event::AcesPending(seat, n) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.aces_pending = *n;
                }
            }
            Event::ExtraAce(seat, card) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    take(&mut p.unseen, card);
                    p.table.push(card.clone());
                    p.hand -= 1;
                    p.aces_pending = p.aces_pending.saturating_sub(1);
                }
            }
            Event::SpeedChanged(seat, d) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.speed_mod += d;
                }
            }
            Event::CombatDecided(report) => state.combat = Some(report.clone()),
            Event::CombatHit(seat, damage, kd) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.combat_damage += damage;
                    p.last_hit_knockdown = Some(*kd);
                    if let Play::Revealed { card, end } = &p.play {
                        p.hits.push(Hit {
                            card: card.clone(),
                            end: *end,
                            combo: false,
                        });
                    }
                }
            }
            Event::ChipDamage(seat, damage) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.combat_damage += damage;
                }
            }
            Event::EscapePlaced(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.escape = Escape::FaceDown;
                    p.hand -= 1;
                }
            }
            Event::EscapeDeclined(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.escape = Escape::Declined;
                }
            }
            Event::EscapeRevealed(seat, card) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    take(&mut p.unseen, card);
                    p.table.push(card.clone());
                    p.escape = Escape::Revealed(card.clone());
                }
            }
            Event::BlockReturned(seat) => {
                if let Some(p) = state.players.get_mut(*seat)
                    && let Play::Revealed { card, .. } = &p.play
                {
                    if let Some(i) = p.table.iter().position(|c| c == card) {
                        p.table.remove(i);
                    }
                    put(&mut p.unseen, card.clone());
                    p.hand += 1;
                }
            }
            Event::ComboHit(seat, card, end, damage, points, kd) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    take(&mut p.unseen, card);
                    p.table.push(card.clone());
                    p.hand -= 1;
                    p.combo_damage += damage;
                    p.combo_points += points;
                    p.last_hit_knockdown = Some(*kd);
                    p.hits.push(Hit {
                        card: card.clone(),
                        end: *end,
                        combo: true,
                    });
                }
            }
            Event::Pumped(seat, cards, damage) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    for c in cards {
                        take(&mut p.unseen, c);
                        p.table.push(c.clone());
                        p.hand -= 1;
                    }
                    p.combo_damage += damage;
                }
            }
            Event::ComboBonus(seat, damage) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.combo_damage += damage;
                }
            }
            Event::ChainIs(seat, n) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.chain = *n;
                }
            }
            Event::Cancelled(seat, amount) => {
                if let Some(p) = state.players.get_mut(other(*seat)) {
                    p.combo_damage = 0;
                }
                if let Some(p) = state.players.get_mut(*seat) {
                    p.cancelled += amount;
                }
            }
            Event::Damaged(lost) => {
                for (p, d) in state.players.iter_mut().zip(lost) {
                    p.hp -= d;
                }
            }
            Event::Knockdown(down) => {
                for (p, d) in state.players.iter_mut().zip(down) {
                    p.knocked_down = *d;
                }
            }
            Event::AcesOwed(seat, n) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.aces_owed = p.aces_owed.saturating_add(*n);
                }
            }
            Event::Searched(seat, card, from, counted) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    match from {
                        Pile::Deck => p.deck -= 1,
                        Pile::Discard => {
                            if let Some(i) = p.discard.iter().rposition(|c| c == card) {
                                p.discard.remove(i);
                            }
                            put(&mut p.unseen, card.clone());
                        }
                    }
                    p.hand += 1;
                    if *counted {
                        p.aces_owed = p.aces_owed.saturating_sub(1);
                    }
                }
            }
            Event::AcesForgone(seat) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.aces_owed = 0;
                }
            }
            Event::Discarded(seat, cards) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    for c in cards {
                        take(&mut p.unseen, c);
                        p.discard.push(c.clone());
                        p.hand -= 1;
                    }
                }
            }
            Event::TableCleared => {
                for p in &mut state.players {
                    let table = std::mem::take(&mut p.table);
                    p.discard.extend(table);
                }
            }
            Event::HpIs(seat, hp) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hp = *hp;
                }
            }
            Event::SetHand(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.hand = *v;
                }
            }
            Event::SetDeck(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.deck = *v;
                }
            }
            Event::SetKnockdown(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.knocked_down = *v;
                }
            }
            Event::SetComboPoints(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.combo_points = *v;
                }
            }
            Event::SetAcesOwed(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.aces_owed = *v;
                }
            }
            Event::SetCancelled(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.cancelled = *v;
                }
            }
            Event::SetTurn(t) => state.turn = *t,
        }
    }

    fn context(state: &State) -> MatchCtx {
        let phases = vec![
            "Draw ドロー".to_owned(),
            "Combat 戦闘".to_owned(),
            "Escape エスケープ".to_owned(),
            "Combo コンボ".to_owned(),
            "Power-up パワーアップ".to_owned(),
        ];
        let current = match state.step {
            Step::DrawAbilities => 0,
            Step::Select | Step::Reveal | Step::RevealAbilities | Step::DuringCombat => 1,
            Step::Escape => 2,
            Step::Combo | Step::BlueBurst => 3,
            Step::GoldBurst
            | Step::EndOfCombat
            | Step::PowerUp
            | Step::EndOfTurn
            | Step::HandLimit
            | Step::Over => 4,
        };
        let next = match state.step {
            Step::DrawAbilities => "2-1: both choose a combat card".to_owned(),
            Step::Select => "2-2: both reveal".to_owned(),
            Step::Reveal => "2-4: the combat winner is decided".to_owned(),
            Step::RevealAbilities => "2-4: the combat winner is decided".to_owned(),
            Step::DuringCombat => "3-1: the normal-attack draw, then the escape card".to_owned(),
            Step::Escape => "4-1/4-2: the block returns, the winner combos".to_owned(),
            Step::Combo => "4-3: blue burst, then damage and knockdown".to_owned(),
            Step::BlueBurst => "4-4: damage and knockdown".to_owned(),
            Step::GoldBurst => "5-2..5-5: abilities, discard the table, power-ups".to_owned(),
            Step::EndOfCombat => "5-3: the table is discarded, then power-ups".to_owned(),
            Step::PowerUp => "5-6/5-7: [End of Turn] abilities and the hand limit".to_owned(),
            Step::EndOfTurn => "5-7: the hand limit".to_owned(),
            Step::HandLimit => format!("turn {}: both draw", state.turn + 1),
            Step::Over => "—".to_owned(),
        };
        let winner = state.winner().map(|w| w.0);
        let active = match state.step {
            Step::Escape => winner.map(other),
            Step::Combo => winner,
            Step::BlueBurst => (0..2).find(|&s| state.players[s].escape == Escape::FaceDown),
            Step::Select => {
                let w: Vec<Seat> = (0..2)
                    .filter(|&s| state.players[s].play == Play::Empty)
                    .collect();
                (w.len() == 1).then(|| w[0])
            }
            Step::Reveal => {
                let w: Vec<Seat> = (0..2)
                    .filter(|&s| {
                        state.players[s].play == Play::FaceDown || state.players[s].aces_pending > 0
                    })
                    .collect();
                (w.len() == 1).then(|| w[0])
            }
            _ => None,
        };
        MatchCtx {
            players: state.players.iter().map(|p| p.name.clone()).collect(),
            turn: state.turn,
            phase: PhaseView {
                phases,
                current,
                step: step_text(state),
                next,
            },
            active,
            leader: None,
            prompts: prompts(state),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let ko = ended(state)?;
        let [a, b] = [state.players[0].hp, state.players[1].hp];
        let (na, nb) = (state.name(0), state.name(1));
        if ko {
            let down: Vec<Seat> = (0..2).filter(|&s| state.players[s].hp <= 0).collect();
            if let [loser] = down.as_slice() {
                return Some(Outcome::Win {
                    winner: other(*loser),
                    reason: format!(
                        "{}'s HP reached {} (KO)",
                        state.name(*loser),
                        state.players[*loser].hp
                    ),
                });
            }
            if state.rules.double_ko == DoubleKo::HigherHpWins && a != b {
                let winner = if a > b { 0 } else { 1 };
                return Some(Outcome::Win {
                    winner,
                    reason: format!(
                        "both were KO'd; {} kept more HP ({a} to {b})",
                        state.name(winner)
                    ),
                });
            }
            return Some(Outcome::Draw {
                reason: format!("both were KO'd at the same moment ({na} {a}, {nb} {b})"),
            });
        }
        let who = (0..2)
            .find(|&s| state.players[s].deck <= 0)
            .map_or("a", |s| state.name(s));
        let why = format!("time out: {who}'s deck ran out");
        Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win {
                winner: 0,
                reason: format!("{why}; {na} has more HP ({a} to {b})"),
            },
            std::cmp::Ordering::Less => Outcome::Win {
                winner: 1,
                reason: format!("{why}; {nb} has more HP ({b} to {a})"),
            },
            std::cmp::Ordering::Equal => Outcome::Draw {
                reason: format!("{why}; equal HP ({a} each)"),
            },
        })
    }

    fn trackers(state: &State) -> Vec<Tracker> {
        let mut out = vec![Tracker {
            id: TrackerId::game("turn"),
            label: "Turn".into(),
            value: state.turn as i32,
            min: 1,
            max: 999,
        }];
        for (seat, p) in state.players.iter().enumerate() {
            let size = (p.unseen.len() + p.discard.len() + p.table.len()) as i32;
            let mut add =
                |name: &'static str, label: &'static str, value: i32, min: i32, max: i32| {
                    out.push(Tracker {
                        id: TrackerId::player(seat, name),
                        label: label.into(),
                        value,
                        min,
                        max,
                    });
                };
            add("hp", "HP 体力", p.hp, -MAX_CHANGE, p.max_hp.max(p.hp));
            add("hand", "Hand 手札", p.hand, 0, size.max(p.hand));
            add("deck", "Deck 山札", p.deck, 0, size.max(p.deck));
            add(
                "discard",
                "Discard pile 捨て札",
                p.discard.len() as i32,
                p.discard.len() as i32,
                p.discard.len() as i32,
            );
            add(
                "knockdown",
                "Knocked down 転倒 (0/1)",
                i32::from(p.knocked_down),
                0,
                1,
            );
            add("combo-points", "Combo points used", p.combo_points, 0, 99);
            add("chain", "Chain combo length", p.chain, 0, 13);
            add(
                "aces-owed",
                "Ace searches open",
                i32::from(p.aces_owed),
                0,
                12,
            );
            add(
                "cancelled",
                "Damage cancelled by blue burst",
                p.cancelled,
                0,
                999,
            );
        }
        out
    }

    fn adjust(_state: &State, tracker: &TrackerId, value: i32) -> Result<Vec<Event>, Impossible> {
        let need_seat = || {
            tracker
                .player
                .filter(|s| *s < 2)
                .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
        };
        let small = |v: i32| {
            u8::try_from(v).map_err(|_| Impossible::new(format!("{v} is outside 0..=255")))
        };
        Ok(match tracker.name.as_ref() {
            "turn" => {
                vec![Event::SetTurn(u32::try_from(value).map_err(|_| {
                    Impossible::new("the turn number is positive")
                })?)]
            }
            "hp" => vec![Event::HpIs(need_seat()?, value)],
            "hand" => vec![Event::SetHand(need_seat()?, value)],
            "deck" => vec![Event::SetDeck(need_seat()?, value)],
            "discard" => Vec::new(),
            "knockdown" => vec![Event::SetKnockdown(need_seat()?, value != 0)],
            "combo-points" => vec![Event::SetComboPoints(need_seat()?, value)],
            "chain" => vec![Event::ChainIs(need_seat()?, value)],
            "aces-owed" => vec![Event::SetAcesOwed(need_seat()?, small(value)?)],
            "cancelled" => vec![Event::SetCancelled(need_seat()?, value)],
            other => {
                return Err(Impossible::new(format!(
                    "Yomi keeps no number called `{other}`"
                )));
            }
        })
    }

    fn die_prompts(_state: &State) -> Vec<Prompt> {
        Vec::new() // Yomi uses no dice (digest §9): every die is a free roll.
    }

    fn fulfil(_state: &State, prompt: &Prompt, _roll: &Roll) -> Result<Vec<Event>, Impossible> {
        Err(Impossible::new(format!(
            "Yomi asks for no dice (prompt {})",
            prompt.id
        )))
    }

    fn candidate_moves(state: &State) -> Vec<Move> {
        let mut out = Vec::new();
        let distinct = |seat: Seat| -> Vec<String> {
            let mut ids = state.players[seat].unseen.clone();
            ids.dedup();
            ids
        };
        let combat_ends = |id: &str| -> Vec<End> {
            match state.cards.get(id).map(|c| &c.data) {
                Some(YomiCard::Joker(_)) => vec![End::Top],
                Some(YomiCard::Move(m)) => [End::Top, End::Bottom]
                    .into_iter()
                    .filter(|e| m.end(*e).kind != MoveKind::Ability)
                    .collect(),
                _ => Vec::new(),
            }
        };
        let searches = |out: &mut Vec<Move>| {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.aces_owed == 0 {
                    continue;
                }
                out.push(Move::ForgoAces { player: seat });
                let is_ace = |c: &&String| state.rank(c) == Some(Rank::Ace);
                if let Some(card) = p.discard.iter().find(is_ace) {
                    out.push(Move::Search {
                        player: seat,
                        card: card.clone(),
                        from: Pile::Discard,
                    });
                }
                if p.deck > 0
                    && let Some(card) = p.unseen.iter().find(is_ace)
                {
                    out.push(Move::Search {
                        player: seat,
                        card: card.clone(),
                        from: Pile::Deck,
                    });
                }
            }
        };
        match state.step {
            Step::DrawAbilities
            | Step::RevealAbilities
            | Step::DuringCombat
            | Step::EndOfCombat
            | Step::EndOfTurn => out.push(Move::Proceed),
            Step::Select => {
                for seat in 0..2 {
                    match state.players[seat].play {
                        Play::Empty => {
                            out.push(Move::FaceDown { player: seat });
                            out.push(Move::NoCard { player: seat });
                        }
                        _ if state.no_card_by == Some(other(seat)) => {
                            out.push(Move::Rechoose { player: seat })
                        }
                        _ => {}
                    }
                }
            }
            Step::Reveal => {
                for seat in 0..2 {
                    let p = &state.players[seat];
                    if p.play == Play::FaceDown {
                        for card in distinct(seat) {
                            for end in combat_ends(&card) {
                                out.push(Move::Reveal {
                                    player: seat,
                                    card: card.clone(),
                                    end,
                                });
                            }
                        }
                    } else if p.aces_pending > 0 {
                        for card in distinct(seat) {
                            if state.rank(&card) == Some(Rank::Ace) {
                                out.push(Move::ExtraAce { player: seat, card });
                            }
                        }
                    }
                }
            }
            Step::Escape => {
                if let Some((w, _)) = state.winner() {
                    out.push(Move::Escape { player: other(w) });
                    out.push(Move::NoEscape { player: other(w) });
                }
            }
            Step::Combo => {
                if let Some((w, _)) = state.winner() {
                    let p = &state.players[w];
                    if p.aces_pending > 0 && can_put_ace(state, w) {
                        for card in distinct(w) {
                            if state.rank(&card) == Some(Rank::Ace) {
                                out.push(Move::ExtraAce { player: w, card });
                            }
                        }
                        return out;
                    }
                    out.push(Move::EndCombo { player: w });
                    if p.hand > 0 {
                        for card in distinct(w) {
                            for end in combat_ends(&card) {
                                if state.end(&card, end).is_some_and(|e| e.kind.strikes()) {
                                    out.push(Move::Combo {
                                        player: w,
                                        card: card.clone(),
                                        end,
                                    });
                                }
                            }
                        }
                    }
                    if let Some(pump) = state.latest_move(w).and_then(|e| e.pump) {
                        let cards: Vec<String> = p
                            .unseen
                            .iter()
                            .take(usize::from(pump.cost))
                            .cloned()
                            .collect();
                        out.push(Move::Pump { player: w, cards });
                    }
                }
            }
            Step::BlueBurst => {
                for seat in 0..2 {
                    if state.players[seat].escape == Escape::FaceDown {
                        let ids = distinct(seat);
                        if let Some(j) = ids.iter().find(|c| state.is_joker(c)) {
                            out.push(Move::RevealEscape {
                                player: seat,
                                card: j.clone(),
                            });
                        }
                        if let Some(c) = ids.iter().find(|c| !state.is_joker(c)) {
                            out.push(Move::RevealEscape {
                                player: seat,
                                card: c.clone(),
                            });
                        }
                    }
                }
            }
            Step::GoldBurst => {
                out.push(Move::Proceed);
                searches(&mut out);
            }
            Step::PowerUp => {
                out.push(Move::Proceed);
                searches(&mut out);
                for seat in 0..2 {
                    let p = &state.players[seat];
                    let mut by_rank: BTreeMap<Rank, Vec<String>> = BTreeMap::new();
                    for c in &p.unseen {
                        if let Some(r) = state.rank(c) {
                            by_rank.entry(r).or_default().push(c.clone());
                        }
                    }
                    if let Some(cards) = by_rank
                        .into_values()
                        .find(|cs| cs.len() >= 2 && p.hand >= 2)
                    {
                        out.push(Move::PowerUp {
                            player: seat,
                            cards: cards.into_iter().take(2).collect(),
                        });
                    }
                }
            }
            Step::HandLimit => {
                for seat in 0..2 {
                    let p = &state.players[seat];
                    let excess = (p.hand - p.hand_limit).max(0) as usize;
                    if excess > 0 && p.unseen.len() >= excess {
                        out.push(Move::Discard {
                            player: seat,
                            cards: p.unseen.iter().take(excess).cloned().collect(),
                        });
                    }
                }
            }
            Step::Over => {}
        }
        out
    }

    fn describe(state: &State, mv: &Move) -> String {
        let name = |s: &Seat| state.name(*s).to_owned();
        let card = |id: &str| state.label(id);
        let list = |cs: &[String]| cs.iter().map(|c| card(c)).collect::<Vec<_>>().join(", ");
        let move_name = |id: &str, end: End| {
            state
                .end(id, end)
                .map(|e| format!("{} ({})", e.name_en, e.kind.as_str()))
                .unwrap_or_else(|| card(id))
        };
        match mv {
            Move::Proceed => format!("Done with {}", step_text(state)),
            Move::FaceDown { player } => format!("{} places a combat card face down", name(player)),
            Move::NoCard { player } => format!("{} declares \"no card\"", name(player)),
            Move::Rechoose { player } => {
                format!("{} takes the choice back to choose again", name(player))
            }
            Move::Reveal {
                player,
                card: c,
                end,
            } => {
                if state.is_joker(c) {
                    format!("{} reveals a Joker (gold burst)", name(player))
                } else {
                    format!(
                        "{} reveals {}: {}",
                        name(player),
                        card(c),
                        move_name(c, *end)
                    )
                }
            }
            Move::ExtraAce { player, card: c } => {
                format!("{} puts out an extra Ace: {}", name(player), card(c))
            }
            Move::Escape { player } => format!("{} puts an escape card face down", name(player)),
            Move::NoEscape { player } => format!("{} puts no escape card", name(player)),
            Move::Combo {
                player,
                card: c,
                end,
            } => {
                format!(
                    "{} combos into {}: {}",
                    name(player),
                    card(c),
                    move_name(c, *end)
                )
            }
            Move::Pump { player, cards } => {
                format!("{} pumps, paying {}", name(player), list(cards))
            }
            Move::EndCombo { player } => format!("{} ends the combo", name(player)),
            Move::RevealEscape { player, card: c } => {
                format!("{} reveals the escape card: {}", name(player), card(c))
            }
            Move::Search {
                player,
                card: c,
                from,
            } => format!(
                "{} searches {} from the {}",
                name(player),
                card(c),
                match from {
                    Pile::Deck => "deck",
                    Pile::Discard => "discard pile",
                }
            ),
            Move::ForgoAces { player } => {
                format!("{} gives up the open Ace searches", name(player))
            }
            Move::PowerUp { player, cards } => {
                format!("{} powers up, discarding {}", name(player), list(cards))
            }
            Move::Discard { player, cards } => format!("{} discards {}", name(player), list(cards)),
            Move::Effect {
                player,
                hp,
                opp_hp,
                draw,
                speed,
                combo_damage,
                note,
            } => {
                let mut parts = Vec::new();
                for (label, v) in [
                    ("HP", hp),
                    ("opponent HP", opp_hp),
                    ("draw", draw),
                    ("speed (tenths)", speed),
                    ("combo damage", combo_damage),
                ] {
                    if *v != 0 {
                        parts.push(format!("{label} {v:+}"));
                    }
                }
                format!(
                    "{}'s ability: {}",
                    name(player),
                    crate::core::effect_summary(&parts, note)
                )
            }
        }
    }
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Top => "top",
        End::Bottom => "bottom",
    }
}

/// Removes one copy of `card` from a sorted list.
fn take(list: &mut Vec<String>, card: &str) {
    if let Ok(i) = list.binary_search_by(|c| c.as_str().cmp(card)) {
        list.remove(i);
    }
}

/// Inserts `card` into a sorted list.
fn put(list: &mut Vec<String>, card: String) {
    let i = list.binary_search(&card).unwrap_or_else(|i| i);
    list.insert(i, card);
}

/// Aces the seat could put out besides `card` (unplayed, hand size permitting).
fn aces_available(state: &State, seat: Seat, card: &str) -> usize {
    let p = &state.players[seat];
    let aces = p
        .unseen
        .iter()
        .filter(|c| state.rank(c) == Some(Rank::Ace))
        .count()
        .saturating_sub(usize::from(state.rank(card) == Some(Rank::Ace)));
    let hand = usize::try_from(p.hand.max(0)).unwrap_or(0);
    aces.min(hand.saturating_sub(1))
}

/// True when the seat could still put out an Ace (one is unplayed and the hand is not empty).
fn can_put_ace(state: &State, seat: Seat) -> bool {
    let p = &state.players[seat];
    p.hand > 0 && p.unseen.iter().any(|c| state.rank(c) == Some(Rank::Ace))
}

/// The chain length of a seat's hits this turn.
fn chain_of(state: &State, seat: Seat) -> i32 {
    let ranks: Vec<Option<u8>> = state.players[seat]
        .hits
        .iter()
        .map(|h| {
            let attack = state
                .end(&h.card, h.end)
                .is_some_and(|e| e.kind == MoveKind::Attack);
            state
                .rank(&h.card)
                .and_then(Rank::number)
                .filter(|_| attack)
        })
        .collect();
    chain_length(&ranks)
}

fn prompts(state: &State) -> Vec<Prompt> {
    let mut out = Vec::new();
    let t = state.turn;
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let abilities = |timings: &[Timing]| -> String {
        let mut lines = Vec::new();
        for p in &state.players {
            if let Some(YomiCard::Character(c)) = state.cards.get(&p.character).map(|c| &c.data) {
                for a in &c.abilities {
                    if a.timing.is_some_and(|t| timings.contains(&t)) {
                        lines.push(format!("{}: {}", p.name, a.text));
                    }
                }
            }
            for e in state.revealed_ends(p) {
                for a in &e.abilities {
                    if a.timing.is_some_and(|t| timings.contains(&t)) {
                        lines.push(format!("{} ({}): {}", p.name, e.name_en, a.text));
                    }
                }
            }
        }
        if lines.is_empty() {
            String::new()
        } else {
            format!(" — {}", lines.join(" / "))
        }
    };
    match state.step {
        Step::DrawAbilities => out.push(choice(
            format!("t{t}-draw-phase"),
            None,
            format!(
                "Use [Draw Phase] abilities, then go on{}",
                abilities(&[Timing::DrawPhase])
            ),
        )),
        Step::Select => {
            for seat in 0..2 {
                if state.players[seat].play == Play::Empty {
                    out.push(choice(
                        format!("t{t}-choose-{seat}"),
                        Some(seat),
                        format!(
                            "{}: place a combat card face down, end toward the opponent (or declare no card)",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
        Step::Reveal => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.play == Play::FaceDown {
                    out.push(choice(
                        format!("t{t}-reveal-{seat}"),
                        Some(seat),
                        format!("{}: reveal your combat card", p.name),
                    ));
                } else if p.aces_pending > 0 {
                    out.push(choice(
                        format!("t{t}-aces-{seat}"),
                        Some(seat),
                        format!("{}: put out {} extra Ace(s)", p.name, p.aces_pending),
                    ));
                }
            }
        }
        Step::RevealAbilities => out.push(choice(
            format!("t{t}-combat-reveal"),
            None,
            format!(
                "Use [Combat Reveal] abilities (speed changes now), then go on{}",
                abilities(&[Timing::CombatReveal])
            ),
        )),
        Step::DuringCombat => out.push(choice(
            format!("t{t}-during-combat"),
            None,
            format!(
                "[During Combat] abilities take effect, then go on{}",
                abilities(&[Timing::DuringCombat])
            ),
        )),
        Step::Escape => {
            if let Some((w, _)) = state.winner() {
                out.push(choice(
                    format!("t{t}-escape"),
                    Some(other(w)),
                    format!(
                        "{}: you may put a card face down (a Joker cancels the combo's damage)",
                        state.name(other(w))
                    ),
                ));
            }
        }
        Step::Combo => {
            if let Some((w, by)) = state.winner() {
                let p = &state.players[w];
                out.push(choice(
                    format!("t{t}-combo"),
                    Some(w),
                    if by == Kind::Dodge {
                        format!("{}: retaliate with one attack or throw, or end", p.name)
                    } else {
                        format!(
                            "{}: pump or combo ({} of {} combo points used), or end the combo",
                            p.name, p.combo_points, p.combo_limit
                        )
                    },
                ));
            }
        }
        Step::BlueBurst => {
            for seat in 0..2 {
                if state.players[seat].escape == Escape::FaceDown {
                    out.push(choice(
                        format!("t{t}-blue-burst-{seat}"),
                        Some(seat),
                        format!("{}: reveal your escape card", state.name(seat)),
                    ));
                }
            }
        }
        Step::GoldBurst | Step::PowerUp => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.aces_owed > 0 {
                    out.push(choice(
                        format!("t{t}-aces-{seat}"),
                        Some(seat),
                        format!(
                            "{}: search up to {} Ace(s) from your deck or discard pile",
                            p.name, p.aces_owed
                        ),
                    ));
                }
            }
            out.push(choice(
                format!(
                    "t{t}-{}",
                    if state.step == Step::GoldBurst {
                        "gold-burst"
                    } else {
                        "power-up"
                    }
                ),
                None,
                if state.step == Step::GoldBurst {
                    "Gold burst: search the Aces, then go on".to_owned()
                } else {
                    "Power up (discard 2–4 cards of one rank for 1–3 Aces), then go on".to_owned()
                },
            ));
        }
        Step::EndOfCombat => out.push(choice(
            format!("t{t}-end-of-combat"),
            None,
            format!(
                "Use [End of Combat] and [Full Combo] abilities, then go on{}",
                abilities(&[Timing::EndOfCombat, Timing::FullCombo])
            ),
        )),
        Step::EndOfTurn => out.push(choice(
            format!("t{t}-end-of-turn"),
            None,
            format!(
                "Use [End of Turn] abilities, then go on{}",
                abilities(&[Timing::EndOfTurn])
            ),
        )),
        Step::HandLimit => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.hand > p.hand_limit {
                    out.push(choice(
                        format!("t{t}-hand-limit-{seat}"),
                        Some(seat),
                        format!(
                            "{}: discard {} card(s), down to {}",
                            p.name,
                            p.hand - p.hand_limit,
                            p.hand_limit
                        ),
                    ));
                }
            }
        }
        Step::Over => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_count_normal_attacks_rising_by_one() {
        assert_eq!(chain_length(&[Some(3), Some(4), Some(5)]), 3);
        assert_eq!(chain_length(&[Some(6), Some(4), Some(5)]), 2);
        assert_eq!(chain_length(&[Some(3), None, Some(4)]), 1);
        assert_eq!(chain_length(&[]), 0);
        assert_eq!(
            (1..=7).map(aces_for_chain).collect::<Vec<_>>(),
            vec![0, 0, 1, 2, 3, 4, 4]
        );
        assert_eq!(
            (1..=5).map(aces_for_set).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 0]
        );
    }

    #[test]
    fn the_combat_matrix_is_symmetric() {
        let cat = match Catalogue::builtin(GameId::Yomi) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        };
        let header = match demo_header(&cat, ["A", "B"], ["akane", "gou"]) {
            Ok(h) => h,
            Err(e) => panic!("{e}"),
        };
        let base = match Yomi::setup(&header.players, &Rules::default(), &cat) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        // Akane: 2♠ attack / block, 2♥ dodge, 6♦ throw, Joker; Gou likewise.
        let plays = |x: char| {
            vec![
                None,
                Some((format!("YO-{x}01"), End::Top)),
                Some((format!("YO-{x}01"), End::Bottom)),
                Some((format!("YO-{x}14"), End::Bottom)),
                Some((format!("YO-{x}31"), End::Bottom)),
                Some((format!("YO-{x}53"), End::Top)),
            ]
        };
        for pa in plays('A') {
            for pb in plays('B') {
                let mut s = base.clone();
                for (seat, p) in [(0, &pa), (1, &pb)] {
                    s.players[seat].play = match p {
                        Some((card, end)) => Play::Revealed {
                            card: card.clone(),
                            end: *end,
                        },
                        None => Play::NoCard,
                    };
                }
                let r = combat_report(&s).result;
                s.players.swap(0, 1);
                let flipped = match combat_report(&s).result {
                    CombatResult::Won { winner, by } => CombatResult::Won {
                        winner: other(winner),
                        by,
                    },
                    r => r,
                };
                assert_eq!(r, flipped, "{pa:?} against {pb:?}");
            }
        }
    }
}
