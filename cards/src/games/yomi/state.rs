//! Yomi's state: the house rules, the turn's steps, each player's HP, hand, discard pile and
//! what is still unseen, and the moves and events of a match.

use super::card::{Ability, End, MoveEnd, MoveKind, Rank, Timing};
use crate::catalogue::YomiCard;
use crate::core::{Impossible, Seat, Violation};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Cards in the starting hand (seed 0-1).
pub const START_HAND: i32 = 7;
/// Largest change one `effect` may enter for a number.
pub const MAX_CHANGE: i32 = 99;
/// Cards one `effect` may draw at most.
pub const MAX_EFFECT_DRAW: i32 = 10;

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
    pub(super) fn label(self) -> &'static str {
        match self {
            Kind::Attack => "attack",
            Kind::Throw => "throw",
            Kind::Block => "block",
            Kind::Dodge => "dodge",
            Kind::Joker => "Joker",
            Kind::NoCard => "no card",
        }
    }
    pub(super) fn strikes(self) -> bool {
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

pub(super) fn top() -> End {
    End::Top
}

/// Reads a list of card ids given as a JSON list or as one comma-separated string
/// (`cards=YO-A06,YO-A19` in a match script).
pub(super) fn card_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
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
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Move {
    /// Closes an ability step (1-2, 2-3, 2-5, 5-2, 5-6), the gold burst (5-1) or the power-up
    /// step (5-5).
    Proceed {},
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
    /// A card drawn from the deck by hand: a draw no rule of the app made (the draws of 1-1,
    /// 3-1, 4-1 and 4-3 are made by the app; an ability's draw is its `effect`). Always breaks a
    /// rule (`yomi.first-turn-draw` on turn 1, else `yomi.extra-draw`); with an override the
    /// card is drawn.
    Draw {
        /// Who.
        player: Seat,
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
    /// The revealed combat card went back to hand: the block card at 4-1, or a card taken back
    /// by an override of `yomi.revealed-stays` (nothing when it is no longer on the table).
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

pub(super) fn other(seat: Seat) -> Seat {
    1 - seat
}

pub(super) fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(
            Impossible::new(format!("Yomi has seats 0 and 1, not {seat}"))
                .ja(format!("ヨミの席は0と1です。{seat} ではありません。")),
        )
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

impl CardInfo {
    pub(super) fn label(&self) -> String {
        if self.name_ja.is_empty() || self.name_ja == self.name_en {
            self.name_en.clone()
        } else {
            format!("{} ({})", self.name_en, self.name_ja)
        }
    }

    /// The card's name in a Japanese sentence: its Japanese name (the English one where the
    /// catalogue gives none).
    pub(super) fn label_ja(&self) -> String {
        if self.name_ja.is_empty() {
            self.name_en.clone()
        } else {
            self.name_ja.clone()
        }
    }
}

/// A move's name in a Japanese sentence: its Japanese name (the English one where the catalogue
/// gives none).
pub(super) fn move_name_ja(e: &MoveEnd) -> &str {
    if e.name_ja.is_empty() {
        &e.name_en
    } else {
        &e.name_ja
    }
}

impl State {
    pub(super) fn info(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards.get(id).ok_or_else(|| {
            Impossible::new(format!("card `{id}` is in neither player's deck")).ja(format!(
                "カード `{id}` はどちらのプレイヤーのデッキにもありません。"
            ))
        })
    }

    pub(super) fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }

    /// The card's name in a Japanese sentence ([`CardInfo::label_ja`]).
    pub(super) fn label_ja(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label_ja)
    }

    pub(super) fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    pub(super) fn is_joker(&self, id: &str) -> bool {
        matches!(
            self.cards.get(id).map(|c| &c.data),
            Some(YomiCard::Joker(_))
        )
    }

    pub(super) fn rank(&self, id: &str) -> Option<Rank> {
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

    pub(super) fn unseen_count(&self, seat: Seat, id: &str) -> usize {
        self.players[seat]
            .unseen
            .iter()
            .filter(|c| c.as_str() == id)
            .count()
    }

    /// Checks that every card of `cards` is among the seat's unseen cards (copies counted) and
    /// that the hand holds that many.
    pub(super) fn check_in_hand(&self, seat: Seat, cards: &[String]) -> Result<(), Impossible> {
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
                )).ja(format!("{} には未使用の {} が残っていません（場か捨て札にあります）。", p.name, self.label_ja(id))));
            }
        }
        if (p.hand as usize) < cards.len() {
            return Err(Impossible::new(format!(
                "{} holds {} card(s), not {}",
                p.name,
                p.hand,
                cards.len()
            ))
            .ja(format!(
                "{} の手札は{}枚で、{}枚ではありません。",
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
    pub fn revealed_ends<'a>(&'a self, p: &'a PlayerState) -> Vec<&'a MoveEnd> {
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
    pub(super) fn latest_move(&self, seat: Seat) -> Option<&MoveEnd> {
        let p = &self.players[seat];
        if let Some(h) = p.hits.last() {
            return self.end(&h.card, h.end);
        }
        self.revealed(seat).and_then(|(c, e)| self.end(c, e))
    }
}

/// Why the game ended, if it did: a KO, or a time out.
pub(super) fn ended(state: &State) -> Option<bool> {
    if state.players.iter().any(|p| p.hp <= 0) {
        return Some(true);
    }
    let deck_out = state.players.iter().any(|p| p.deck <= 0);
    if state.step == Step::Over || (deck_out && state.rules.time_out == TimeOut::AtOnce) {
        return Some(false);
    }
    None
}

pub(super) fn step_text(state: &State) -> String {
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

/// The step of the seed a Yomi move belongs to: its number, its name and its own words, as the
/// seed `0-1`…`5-8` writes them (what a refusal quotes).
pub(super) fn seed_words(step: Step) -> &'static str {
    match step {
        Step::DrawAbilities => {
            "1-2. ドローフェイズ能力「ここで [Draw Phase] 能力を使用することができる。」"
        }
        Step::Select => {
            "2-1. 戦闘札選択「両者それぞれ、手札から戦闘札を1枚選び、カードの上下どちらかを相手に向けて伏せて場に置く。」"
        }
        Step::Reveal => {
            "2-2. 戦闘札公開「両者とも、伏せたカードを表に返す。A札が複数枚必要な技を公開した場合、ここで追加のA札を場に出す。」"
        }
        Step::RevealAbilities => {
            "2-3. 戦闘公開能力「ここで [Combat Reveal] 能力を使用することができる。」"
        }
        Step::DuringCombat => "2-5. 戦闘中能力「ここで [During Combat] 能力が効果を発動する。」",
        Step::Escape => {
            "3-2. カードを伏せる「戦闘フェイズで勝った側がパンプアップやコンボが可能な場合、負けた側は手札からカードを1枚選び伏せて場に置くことができる。」"
        }
        Step::Combo => {
            "4-2. コンボ実行「可能な場合、戦闘フェイズの技をパンプアップしたり、コンボをつないだりできる。」"
        }
        Step::BlueBurst => {
            "4-3. 青バースト「エスケープフェイズでカードを伏せていた場合、伏せたカードを表に返す。」"
        }
        Step::GoldBurst => {
            "5-1. 金バーストによるA「戦闘フェイズでジョーカーを出して勝ったか引き分けた場合、捨て札か山札からAを2枚まで探して手札に加えることができる。」"
        }
        Step::EndOfCombat => {
            "5-2. 戦闘終了能力「ここで [End of Combat] 能力や [Full Combo] 能力を使用することができる。」"
        }
        Step::PowerUp => {
            "5-5. パワーアップ「同数値のカードを複数枚捨ててAを探し手札に加えることができる。」"
        }
        Step::EndOfTurn => {
            "5-6. ターン終了時能力「ここで [End of Turn] 能力を使用することができる。」"
        }
        Step::HandLimit => {
            "5-7. 手札制限「手札が13枚以上となっていた場合は12枚になるまで捨てる。」"
        }
        Step::Over => "0-2. ゲーム終了「その時点でゲームは終了し」",
    }
}

/// A move made at a step it does not belong to (`yomi.phase-order`): "{what} belongs to step
/// {n} ({name}); the match is at {now}." in both languages, quoting the seed's words of the step
/// the move belongs to.
pub(super) fn out_of_step(state: &State, what: &str, what_ja: &str, when: Step) -> Violation {
    let words = seed_words(when);
    let name = words.split('「').next().unwrap_or(words);
    Violation::wrong_phase(
        "yomi.phase-order",
        words,
        [what, &format!("step {name}"), &step_text(state)],
        [
            what_ja,
            name,
            &format!("ターン{} {}", state.turn, step_number(state.step)),
        ],
    )
}

/// The step's number in the rulebook (`2-1`, `5-7` …).
pub(super) fn step_number(step: Step) -> &'static str {
    match step {
        Step::DrawAbilities => "1-2",
        Step::Select => "2-1",
        Step::Reveal => "2-2",
        Step::RevealAbilities => "2-3",
        Step::DuringCombat => "2-5",
        Step::Escape => "3-2",
        Step::Combo => "4-2",
        Step::BlueBurst => "4-3",
        Step::GoldBurst => "5-1",
        Step::EndOfCombat => "5-2",
        Step::PowerUp => "5-4/5-5",
        Step::EndOfTurn => "5-6",
        Step::HandLimit => "5-7",
        Step::Over => "（終了）",
    }
}

pub(super) fn end_name(end: End) -> &'static str {
    match end {
        End::Top => "top",
        End::Bottom => "bottom",
    }
}

/// A rank in a Japanese sentence: the number, ジャック, クイーン, キング, or A (as the seed writes
/// it: 「A札」).
pub(super) fn rank_ja(rank: Rank) -> String {
    match rank {
        Rank::Number(n) => n.to_string(),
        Rank::Jack => "ジャック".to_owned(),
        Rank::Queen => "クイーン".to_owned(),
        Rank::King => "キング".to_owned(),
        Rank::Ace => "A".to_owned(),
    }
}

/// The end in a Japanese sentence: 上 or 下 (seed 2-1 「カードの上下どちらか」).
pub(super) fn end_name_ja(end: End) -> &'static str {
    match end {
        End::Top => "上",
        End::Bottom => "下",
    }
}

/// Where a house rule is written: nowhere in the rulebook (the window shows it as a house rule).
pub(super) const REF_HOUSE: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";
/// 2-2's words on the extra Aces of a multi-Ace super.
pub(super) const REF_EXTRA_ACES: &str =
    "2-2. 戦闘札公開「A札が複数枚必要な技を公開した場合、ここで追加のA札を場に出す。」";
/// The three Ace searches' words (5-1, 5-4, 5-5).
pub(super) const REF_ACE_SEARCH: &str = "5-1. 金バーストによるA「捨て札か山札からAを2枚まで探して手札に加えることができる。」・5-4. チェーンコンボによるA「Aを探して手札に加えることができる。」・5-5. パワーアップ「Aを探し手札に加えることができる。」";
/// 2-1's words on choosing again after the opponent's "no card".
pub(super) const REF_RECHOOSE: &str = "2-1. 戦闘札選択「カードを伏せない「ノーカード」を宣言することもできる。この場合、相手は伏せるカードを選択しなおすことができる。」";
/// A revealed combat card stays: revealed at 2-2, the combat decided by it at 2-4.
pub(super) const REF_REVEALED_STAYS: &str = "2-2. 戦闘札公開「両者とも、伏せたカードを表に返す。」・2-4. 勝敗決定「出した札によって戦闘の勝敗を決める。」";
/// A speed change belongs before the combat winner is decided (2-3, 2-4).
pub(super) const REF_SPEED: &str = "2-3. 戦闘公開能力「ここで [Combat Reveal] 能力を使用することができる。」・2-4. 勝敗決定「出した札によって戦闘の勝敗を決める。」";
/// Combo damage is cancelled by the blue burst and counted at the damage step (4-3, 4-4).
pub(super) const REF_COMBO_DAMAGE: &str = "4-3. 青バースト「伏せたカードがジョーカーだった場合、コンボフェイズの技によるダメージを無効化する。」・4-4. ダメージ処理「勝った側が与えたダメージを計算し、負けた側の体力を減らす。」";

/// Removes one copy of `card` from a sorted list.
pub(super) fn take(list: &mut Vec<String>, card: &str) {
    if let Ok(i) = list.binary_search_by(|c| c.as_str().cmp(card)) {
        list.remove(i);
    }
}

/// Inserts `card` into a sorted list.
pub(super) fn put(list: &mut Vec<String>, card: String) {
    let i = list.binary_search(&card).unwrap_or_else(|i| i);
    list.insert(i, card);
}

/// Aces the seat could put out besides `card` (unplayed, hand size permitting).
pub(super) fn aces_available(state: &State, seat: Seat, card: &str) -> usize {
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
pub(super) fn can_put_ace(state: &State, seat: Seat) -> bool {
    let p = &state.players[seat];
    p.hand > 0 && p.unseen.iter().any(|c| state.rank(c) == Some(Rank::Ace))
}

/// The chain length of a seat's hits this turn.
pub(super) fn chain_of(state: &State, seat: Seat) -> i32 {
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
