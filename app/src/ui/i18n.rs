//! The window's words in English and Japanese: one table, switchable at runtime.
//!
//! [`Lang::t`] gives the fixed strings of a language ([`Strings`], one field per string, so a
//! missing translation does not compile); the `Lang` methods build the strings that hold names
//! or numbers. Card names come from the catalogue in the chosen language (`name_ja`/`name_en`).
//! Sentences written by the rules core (rule refusals, log lines, prompts) stay as the core
//! writes them.

/// The language of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Japanese (日本語).
    Ja,
}

/// Environment variable: `ja` opens the window in Japanese (`en`, or unset, in English).
pub const LANG_ENV: &str = "TABLESIDE_LANG";

impl Lang {
    /// The language named by [`LANG_ENV`], English when unset or unknown.
    pub fn from_env() -> Lang {
        match std::env::var(LANG_ENV).as_deref() {
            Ok(v) if v.starts_with("ja") => Lang::Ja,
            _ => Lang::En,
        }
    }

    /// The other language.
    pub fn toggled(self) -> Lang {
        match self {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::En,
        }
    }

    /// The code `Card::name` takes (`en`, `ja`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The fixed strings of this language.
    pub fn t(self) -> &'static Strings {
        match self {
            Lang::En => &EN,
            Lang::Ja => &JA,
        }
    }

    /// Picks the English or the Japanese text.
    pub fn pick<T>(self, en: T, ja: T) -> T {
        match self {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }

    /// "Resume match #3".
    pub fn resume_match(self, id: impl std::fmt::Display) -> String {
        self.pick(format!("Resume match #{id}"), format!("対戦 #{id} を再開"))
    }

    /// "Player 2".
    pub fn player_n(self, n: usize) -> String {
        self.pick(format!("Player {n}"), format!("プレイヤー {n}"))
    }

    /// "Player 2 name".
    pub fn player_name(self, n: usize) -> String {
        self.pick(format!("Player {n} name"), format!("プレイヤー {n} の名前"))
    }

    /// "Player 2 deck: gale".
    pub fn player_deck(self, n: usize, deck: &str) -> String {
        self.pick(
            format!("Player {n} deck: {deck}"),
            format!("プレイヤー {n} のデッキ: {deck}"),
        )
    }

    /// "23 entries".
    pub fn entries(self, n: u64) -> String {
        self.pick(format!("{n} entries"), format!("{n} 件"))
    }

    /// "Battle 3 / 10" (`of` is " / 10" or empty).
    pub fn battle(self, n: u32, of: &str) -> String {
        self.pick(format!("Battle {n}{of}"), format!("第{n}バトル{of}"))
    }

    /// "Aki wins".
    pub fn wins(self, name: &str) -> String {
        self.pick(format!("{name} wins"), format!("{name} の勝ち"))
    }

    /// "Aki's " (English possessive, to put before a number's label), "Akiの " in Japanese.
    pub fn whose(self, name: &str) -> String {
        self.pick(format!("{name}'s "), format!("{name}の "))
    }

    /// "Correct Aki's SB 魂玉".
    pub fn correct(self, what: &str) -> String {
        self.pick(format!("Correct {what}"), format!("{what} を訂正"))
    }

    /// "Edit Aki's SB 魂玉" (the accessible name of a "± edit" button).
    pub fn edit(self, what: &str) -> String {
        self.pick(format!("Edit {what}"), format!("{what} を訂正"))
    }

    /// "Now 9; allowed 0 to 20. The correction is logged."
    pub fn adjust_range(self, now: i32, min: i32, max: i32) -> String {
        self.pick(
            format!("Now {now}; allowed {min} to {max}. The correction is logged."),
            format!("現在 {now}(範囲 {min}〜{max})。訂正は記録されます。"),
        )
    }

    /// Where a refused rule is written, in the rulebook's own words: "rule jaken.summon-cost ·
    /// rulebook: 召喚コスト" / "ルールブック: 召喚コスト" (see [`rulebook_words`]; the rule's id
    /// is shown in English only).
    pub fn rule_ref(self, rule: &str, reference: &str) -> String {
        let words = rulebook_words(reference);
        match (self, words) {
            (Lang::En, Some(w)) => format!("rule {rule} · rulebook: {w}"),
            (Lang::En, None) => format!("rule {rule} · a house rule (not in the rulebook)"),
            (Lang::Ja, Some(w)) => format!("ルールブック: {w}"),
            (Lang::Ja, None) => "ハウスルール(ルールブックに記載なし)".to_owned(),
        }
    }

    /// "   OVERRIDE of: sentence (rulebook: words)", a log line's overridden rule.
    pub fn override_of(self, rule: &str, sentence: &str, reference: &str) -> String {
        let words = rulebook_words(reference);
        match (self, words) {
            (Lang::En, Some(w)) => format!("   OVERRIDE of [{rule}] {sentence} (rulebook: {w})"),
            (Lang::En, None) => format!("   OVERRIDE of [{rule}] {sentence} (a house rule)"),
            (Lang::Ja, Some(w)) => format!("   ルール無視: {sentence}(ルールブック: {w})"),
            (Lang::Ja, None) => format!("   ルール無視: {sentence}(ハウスルール)"),
        }
    }

    /// "Match #3 · Aki vs Ben".
    pub fn match_title(self, id: impl std::fmt::Display, players: &str) -> String {
        self.pick(
            format!("Match #{id} · {players}"),
            format!("対戦 #{id} · {players}"),
        )
    }

    /// "Match log: /path".
    pub fn match_log(self, path: &str) -> String {
        self.pick(format!("Match log: {path}"), format!("対戦記録: {path}"))
    }

    /// "File: … Tableside did not change this file …".
    pub fn store_file(self, path: &str) -> String {
        self.pick(
            format!(
                "File: {path}\nTableside did not change this file. Move it aside (or start Tableside \
                 with another --data-dir) and try again."
            ),
            format!(
                "ファイル: {path}\nTableside はこのファイルを変更していません。別の場所に移す(または別の \
                 --data-dir で起動する)と、もう一度試せます。"
            ),
        )
    }

    /// "Step 4 / 31".
    pub fn step_of(self, n: usize, total: usize) -> String {
        self.pick(
            format!("Step {n} / {total}"),
            format!("ステップ {n} / {total}"),
        )
    }

    /// "Written to /path".
    pub fn written(self, path: &str) -> String {
        self.pick(
            format!("Written to {path}"),
            format!("{path} に書き出しました"),
        )
    }

    /// "[Space] Start" in kiosk mode: the key shown on a button.
    pub fn with_key(self, key: &str, text: &str) -> String {
        format!("[{key}] {text}")
    }
}

/// The rulebook's own words in a rule reference as the rules core writes it
/// (`jaken.md §5; seed ❷ 召喚コスト`): the seed's section names (`召喚コスト`), without the
/// digest, file names, section signs or the seed's numbering. `None` when the rule is not in
/// the rulebook (`outside the seed: Y3`, or only a digest reference): a house rule.
pub fn rulebook_words(reference: &str) -> Option<String> {
    let mut words: Vec<String> = Vec::new();
    for part in reference.split(';') {
        let mut part = part.trim();
        // `(beginner game; outside the seed: Y7)` splits inside the parentheses.
        if part.matches(')').count() > part.matches('(').count() {
            part = part.strip_suffix(')').unwrap_or(part).trim();
        }
        let Some(rest) = part.strip_prefix("seed") else {
            continue;
        };
        let mut rest = rest.trim_start_matches(':').trim();
        // The seed's own numbering (`004`, `❷`, `⑨`) is not a section name.
        if let Some((first, tail)) = rest.split_once(' ') {
            let numbering = first.chars().all(|c| {
                c.is_ascii_digit() || ('①'..='⑳').contains(&c) || ('❶'..='❿').contains(&c)
            });
            if numbering && !tail.trim().is_empty() {
                rest = tail.trim();
            }
        }
        if !rest.is_empty() && !rest.contains(".md") && !rest.contains('§') {
            words.push(rest.to_owned());
        }
    }
    (!words.is_empty()).then(|| words.join(" · "))
}

/// Every fixed string of the window, in one language.
#[derive(Debug)]
pub struct Strings {
    /// Button: switch to the other language (written in that language).
    pub other_language: &'static str,
    /// Under the app's name on the start screen.
    pub tagline: &'static str,
    /// Kiosk "Quit".
    pub quit: &'static str,
    /// Start: the most recent unfinished match.
    pub unfinished_waiting: &'static str,
    /// Start: the other unfinished matches.
    pub other_unfinished: &'static str,
    /// Start: heading of a new match, and the result's "New match".
    pub new_match: &'static str,
    /// Start: the catalogue cannot be loaded.
    pub catalogue_broken: &'static str,
    /// Start: "Game".
    pub game: &'static str,
    /// Start: "Players".
    pub players: &'static str,
    /// Start: Jaken is played by two.
    pub two_players: &'static str,
    /// Start: "Cards".
    pub cards: &'static str,
    /// Start: name field hint.
    pub name_hint: &'static str,
    /// Start: "Deck".
    pub deck: &'static str,
    /// Start: the demo set's decks.
    pub demo_decks: &'static str,
    /// Start: registered decks of the store.
    pub registered_decks: &'static str,
    /// Start: no registered deck for this game.
    pub no_registered_decks: &'static str,
    /// Start: house rules heading.
    pub house_rules: &'static str,
    /// Start: settlement caption.
    pub settle: &'static str,
    /// Start: net settlement.
    pub settle_net: &'static str,
    /// Start: parent-first settlement.
    pub settle_parent_first: &'static str,
    /// House rule.
    pub draw_in_battle_1: &'static str,
    /// House rule.
    pub clamp_negative: &'static str,
    /// House rule.
    pub bg_multiple: &'static str,
    /// House rule.
    pub bg_stays: &'static str,
    /// Start: "Start".
    pub start: &'static str,
    /// Start: a name is missing.
    pub need_names: &'static str,
    /// Start: the names are the same.
    pub need_different_names: &'static str,
    /// Start: the devices section.
    pub devices: &'static str,
    /// Start and table: "Dice tower".
    pub dice_tower: &'static str,
    /// Start: no tower was asked for.
    pub no_tower: &'static str,
    /// "Camera".
    pub camera: &'static str,
    /// No camera in this build.
    pub camera_none: &'static str,
    /// Start: the history button.
    pub history: &'static str,
    /// Start: a match could not start.
    pub could_not_start: &'static str,
    /// Start: a match could not be resumed.
    pub could_not_resume: &'static str,
    /// Start: the unfinished matches cannot be listed.
    pub cannot_list: &'static str,
    /// Start: a header that cannot be read.
    pub players_unreadable: &'static str,
    /// Store error title.
    pub store_error: &'static str,
    /// "Try again".
    pub try_again: &'static str,
    /// Table: leave.
    pub leave_table: &'static str,
    /// Table: the match stays saved.
    pub stays_saved: &'static str,
    /// Table: "Now:".
    pub now: &'static str,
    /// Table: "Next:".
    pub next: &'static str,
    /// Table: the log heading.
    pub log: &'static str,
    /// Table: show the log (compact layout).
    pub show_log: &'static str,
    /// Table: hide the log (compact layout).
    pub hide_log: &'static str,
    /// Table: undo the last entry.
    pub undo_last: &'static str,
    /// Table: empty log.
    pub nothing_yet: &'static str,
    /// Table: an undone entry.
    pub undone: &'static str,
    /// Table: the open prompts.
    pub waiting_for: &'static str,
    /// Result: heading.
    pub match_over: &'static str,
    /// Result: draw.
    pub draw: &'static str,
    /// "Undo".
    pub undo: &'static str,
    /// Table: the active player.
    pub to_act: &'static str,
    /// Table: the first player of a game without its own panel.
    pub first_player: &'static str,
    /// Table: numbers not shown elsewhere.
    pub other_numbers: &'static str,
    /// Refusal title.
    pub refused: &'static str,
    /// Refusal: why override.
    pub override_why: &'static str,
    /// Refusal: the reason field.
    pub override_reason: &'static str,
    /// Refusal: apply.
    pub apply_override: &'static str,
    /// "Back".
    pub back: &'static str,
    /// Refusal: undo at the table.
    pub undo_at_table: &'static str,
    /// Refusal: override.
    pub override_: &'static str,
    /// Correction: new value.
    pub new_value: &'static str,
    /// Correction: reason.
    pub correction_reason: &'static str,
    /// Correction: not a number.
    pub whole_number: &'static str,
    /// Correction: save.
    pub save_correction: &'static str,
    /// "Cancel".
    pub cancel: &'static str,
    /// Notice: an input that cannot be built.
    pub cannot_enter: &'static str,
    /// Notice: impossible.
    pub not_possible: &'static str,
    /// "OK".
    pub ok: &'static str,
    /// The "± edit" control.
    pub edit: &'static str,
    /// Dice panel heading.
    pub dice: &'static str,
    /// Dice: retry logging.
    pub retry: &'static str,
    /// Dice: hide hand entry.
    pub hide_hand_entry: &'static str,
    /// Dice: show hand entry.
    pub by_hand: &'static str,
    /// Dice: enter typed dice.
    pub enter: &'static str,
    /// Dice: virtual dice.
    pub virtual_dice: &'static str,
    /// Jaken: parent marker.
    pub parent: &'static str,
    /// Jaken: child marker.
    pub child: &'static str,
    /// Jaken: "Trash".
    pub trash: &'static str,
    /// Jaken: "Hand".
    pub hand: &'static str,
    /// Jaken: "Deck" (count).
    pub deck_count: &'static str,
    /// Jaken: the battle field.
    pub battle_field: &'static str,
    /// Jaken: an empty zone.
    pub empty: &'static str,
    /// Jaken: face-down monster.
    pub face_down_monster: &'static str,
    /// Jaken: no monster.
    pub no_monster: &'static str,
    /// Jaken: BG zone.
    pub bg_zone: &'static str,
    /// Jaken: BG face up.
    pub face_up: &'static str,
    /// Jaken: BG used up.
    pub face_down_used: &'static str,
    /// Jaken: BG uses are for the strategy phase.
    pub bg_strategy_only: &'static str,
    /// Jaken: effect form caption.
    pub enter_effect: &'static str,
    /// Jaken: "Own ATK".
    pub own_atk: &'static str,
    /// Jaken: "Own DEF".
    pub own_def: &'static str,
    /// Jaken: "Opponent ATK".
    pub opp_atk: &'static str,
    /// Jaken: "Opponent DEF".
    pub opp_def: &'static str,
    /// Jaken: "SB taken".
    pub sb_taken: &'static str,
    /// Jaken: note hint.
    pub note_hint: &'static str,
    /// Jaken: "Uses".
    pub uses: &'static str,
    /// Jaken: "uses left".
    pub uses_left: &'static str,
    /// History: heading.
    pub history_title: &'static str,
    /// History: nothing stored.
    pub no_matches: &'static str,
    /// History: per game.
    pub by_game: &'static str,
    /// History: per deck.
    pub by_deck: &'static str,
    /// History: per player.
    pub by_player: &'static str,
    /// History: the stored matches.
    pub stored_matches: &'static str,
    /// History: "played".
    pub played: &'static str,
    /// History: "won".
    pub won: &'static str,
    /// History: "draws".
    pub draws: &'static str,
    /// History: "win rate".
    pub win_rate: &'static str,
    /// History: unfinished.
    pub unfinished: &'static str,
    /// History: replay a match.
    pub replay: &'static str,
    /// History: step back.
    pub step_back: &'static str,
    /// History: step forward.
    pub step_forward: &'static str,
    /// History: to the start.
    pub first_step: &'static str,
    /// History: to the end.
    pub last_step: &'static str,
    /// History: the state before any entry.
    pub before_first: &'static str,
    /// History: numbers at this step.
    pub numbers_here: &'static str,
    /// History: export JSON.
    pub export_json: &'static str,
    /// History: export CSV.
    pub export_csv: &'static str,
    /// History: back to the start screen.
    pub back_to_start: &'static str,
    /// Kiosk: key help.
    pub keys_help: &'static str,
}

/// English.
pub static EN: Strings = Strings {
    other_language: "日本語",
    tagline: "the numbers beside your card table",
    quit: "Quit",
    unfinished_waiting: "An unfinished match is waiting",
    other_unfinished: "Other unfinished matches",
    new_match: "New match",
    catalogue_broken: "The card catalogue cannot be loaded, so no match can start:",
    game: "Game",
    players: "Players",
    two_players: "2 players",
    cards: "Cards",
    name_hint: "name",
    deck: "Deck",
    demo_decks: "Ready-made decks of the demo set",
    registered_decks: "Registered decks",
    no_registered_decks: "No deck of this game is registered (tableside deck register).",
    house_rules: "House rules",
    settle: "Settle the two strikes:",
    settle_net: "as one net transfer",
    settle_parent_first: "parent's strike first, stop at 0",
    draw_in_battle_1: "Both players draw in battle 1 too",
    clamp_negative: "ATK and DEF below 0 count as 0",
    bg_multiple: "A BG may be used several times in one battle",
    bg_stays: "A BG stays in its zone until its uses run out",
    start: "Start",
    need_names: "Enter a name for both players.",
    need_different_names: "The two players need different names.",
    devices: "Devices",
    dice_tower: "Dice tower",
    no_tower: "none asked for: dice are typed or virtual (start with --tower to use one)",
    camera: "Camera",
    camera_none: "none: card recognition is not built into this version; cards are entered by tapping",
    history: "History",
    could_not_start: "The match could not start:",
    could_not_resume: "The match could not be resumed:",
    cannot_list: "The unfinished matches cannot be listed:",
    players_unreadable: "(players unreadable)",
    store_error: "The match log cannot be opened",
    try_again: "Try again",
    leave_table: "Leave table",
    stays_saved: "(the match stays saved)",
    now: "Now:",
    next: "Next:",
    log: "Log",
    show_log: "Log & dice",
    hide_log: "Back to the table",
    undo_last: "Undo last",
    nothing_yet: "Nothing yet.",
    undone: "   (undone)",
    waiting_for: "Waiting for",
    match_over: "The match is over",
    draw: "Draw",
    undo: "Undo",
    to_act: "to act",
    first_player: "first player",
    other_numbers: "Other numbers",
    refused: "Refused: this move breaks a rule",
    override_why: "Why do the players override the rule? The reason is logged.",
    override_reason: "Override reason",
    apply_override: "Apply with override",
    back: "Back",
    undo_at_table: "Undo at the table",
    override_: "Override…",
    new_value: "New value",
    correction_reason: "Reason for the correction",
    whole_number: "Enter a whole number.",
    save_correction: "Save correction",
    cancel: "Cancel",
    cannot_enter: "That cannot be entered",
    not_possible: "Not possible",
    ok: "OK",
    edit: "± edit",
    dice: "Dice",
    retry: "Retry",
    hide_hand_entry: "Hide hand entry",
    by_hand: "By hand…",
    enter: "Enter",
    virtual_dice: "Virtual",
    parent: "親 Parent · OB",
    child: "子 Child",
    trash: "Trash",
    hand: "Hand 手札",
    deck_count: "Deck デッキ",
    battle_field: "Battle field",
    empty: "empty",
    face_down_monster: "a monster, face down",
    no_monster: "no monster: ATK 0 / DEF 0",
    bg_zone: "BG zone",
    face_up: "face up",
    face_down_used: "face down (used up)",
    bg_strategy_only: "BG uses belong to P3 … B4 (the strategy phase).",
    enter_effect: "Enter what the effect does:",
    own_atk: "Own ATK",
    own_def: "Own DEF",
    opp_atk: "Opponent ATK",
    opp_def: "Opponent DEF",
    sb_taken: "SB taken",
    note_hint: "note (optional)",
    uses: "Uses",
    uses_left: "uses left",
    history_title: "History",
    no_matches: "No match is stored yet.",
    by_game: "By game",
    by_deck: "By deck",
    by_player: "By player",
    stored_matches: "Stored matches",
    played: "played",
    won: "won",
    draws: "draws",
    win_rate: "win rate",
    unfinished: "unfinished",
    replay: "Replay",
    step_back: "« Step back",
    step_forward: "Step forward »",
    first_step: "|« Start",
    last_step: "End »|",
    before_first: "before the first entry",
    numbers_here: "The numbers at this step",
    export_json: "Export JSON",
    export_csv: "Export CSV",
    back_to_start: "Back",
    keys_help: "Keys: Space/Enter next move · 1–9 moves · U undo · R roll d6 · Y/N confirm · L language",
};

/// Japanese.
pub static JA: Strings = Strings {
    other_language: "English",
    tagline: "カードゲームの卓のそばで数を数える",
    quit: "終了",
    unfinished_waiting: "途中の対戦があります",
    other_unfinished: "ほかの途中の対戦",
    new_match: "新しい対戦",
    catalogue_broken: "カード目録を読めないため、対戦を始められません:",
    game: "ゲーム",
    players: "人数",
    two_players: "2人",
    cards: "カード",
    name_hint: "名前",
    deck: "デッキ",
    demo_decks: "デモセットの既製デッキ",
    registered_decks: "登録済みデッキ",
    no_registered_decks: "このゲームの登録済みデッキはありません(tableside deck register)。",
    house_rules: "ハウスルール",
    settle: "2つの攻撃の精算:",
    settle_net: "差し引きで一度に",
    settle_parent_first: "親の攻撃を先に、0で止める",
    draw_in_battle_1: "第1バトルでも両者がドローする",
    clamp_negative: "0未満の攻撃力・守備力は0とする",
    bg_multiple: "1バトルにBGを何度でも使える",
    bg_stays: "BGは使用回数が尽きるまでゾーンに残る",
    start: "開始",
    need_names: "2人とも名前を入れてください。",
    need_different_names: "2人の名前は別にしてください。",
    devices: "機器",
    dice_tower: "ダイスタワー",
    no_tower: "なし: ダイスは入力か仮想ダイス(--tower で接続)",
    camera: "カメラ",
    camera_none: "なし: この版にはカード認識がありません。カードはタップで入力します",
    history: "履歴",
    could_not_start: "対戦を始められませんでした:",
    could_not_resume: "対戦を再開できませんでした:",
    cannot_list: "途中の対戦を一覧できません:",
    players_unreadable: "(プレイヤー不明)",
    store_error: "対戦記録を開けません",
    try_again: "もう一度",
    leave_table: "卓を離れる",
    stays_saved: "(対戦は保存されます)",
    now: "いま:",
    next: "次:",
    log: "記録",
    show_log: "記録とダイス",
    hide_log: "卓に戻る",
    undo_last: "最後を取り消す",
    nothing_yet: "まだありません。",
    undone: "   (取り消し済み)",
    waiting_for: "待っているもの",
    match_over: "対戦終了",
    draw: "引き分け",
    undo: "取り消す",
    to_act: "の番",
    first_player: "先手",
    other_numbers: "ほかの数",
    refused: "拒否: この手はルールに反します",
    override_why: "なぜルールを無視しますか?理由は記録されます。",
    override_reason: "ルール無視の理由",
    apply_override: "ルールを無視して適用",
    back: "戻る",
    undo_at_table: "卓で戻す",
    override_: "ルール無視…",
    new_value: "新しい値",
    correction_reason: "訂正の理由",
    whole_number: "整数を入れてください。",
    save_correction: "訂正を保存",
    cancel: "やめる",
    cannot_enter: "入力できません",
    not_possible: "できません",
    ok: "OK",
    edit: "± 訂正",
    dice: "ダイス",
    retry: "再試行",
    hide_hand_entry: "手入力を隠す",
    by_hand: "手入力…",
    enter: "入力",
    virtual_dice: "仮想",
    parent: "親 · OB",
    child: "子",
    trash: "トラッシュ",
    hand: "手札",
    deck_count: "デッキ",
    battle_field: "バトル場",
    empty: "空",
    face_down_monster: "裏向きのモンスター",
    no_monster: "モンスターなし: 攻撃力0 / 守備力0",
    bg_zone: "BGゾーン",
    face_up: "表向き",
    face_down_used: "裏向き(使用済み)",
    bg_strategy_only: "BGを使えるのはP3〜B4(戦略フェーズ)です。",
    enter_effect: "効果の結果を入力:",
    own_atk: "自分の攻撃力",
    own_def: "自分の守備力",
    opp_atk: "相手の攻撃力",
    opp_def: "相手の守備力",
    sb_taken: "奪うSB",
    note_hint: "メモ(任意)",
    uses: "回数",
    uses_left: "残り回数",
    history_title: "履歴",
    no_matches: "保存された対戦はまだありません。",
    by_game: "ゲーム別",
    by_deck: "デッキ別",
    by_player: "プレイヤー別",
    stored_matches: "保存された対戦",
    played: "対戦",
    won: "勝ち",
    draws: "引き分け",
    win_rate: "勝率",
    unfinished: "途中",
    replay: "再生",
    step_back: "« 1つ戻る",
    step_forward: "1つ進む »",
    first_step: "|« 最初",
    last_step: "最後 »|",
    before_first: "最初の記録の前",
    numbers_here: "このステップの数",
    export_json: "JSONで書き出す",
    export_csv: "CSVで書き出す",
    back_to_start: "戻る",
    keys_help: "キー: スペース/Enter 次の手 · 1–9 手 · U 取り消し · R d6 · Y/N 確認 · L 言語",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_references_keep_the_rulebooks_words_only() {
        assert_eq!(
            rulebook_words("jaken.md §5; seed ❷ 召喚コスト").as_deref(),
            Some("召喚コスト")
        );
        assert_eq!(
            rulebook_words("yomi.md §3 5-1/5-4/5-5, §10.10; seed 004 5-1, 5-4, 5-5").as_deref(),
            Some("5-1, 5-4, 5-5")
        );
        assert_eq!(
            rulebook_words("space-junk.md §5 (* boosts); seed Special Symbols (Note)").as_deref(),
            Some("Special Symbols (Note)")
        );
        assert_eq!(rulebook_words("yomi.md §5; outside the seed: Y3"), None);
        assert_eq!(
            rulebook_words("yomi.md §8 (beginner game; outside the seed: Y7)"),
            None
        );
        assert_eq!(rulebook_words("docs/catalogue-yomi.md"), None);
        for lang in [Lang::En, Lang::Ja] {
            let shown = lang.rule_ref("jaken.summon-cost", "jaken.md §5; seed ❷ 召喚コスト");
            assert!(shown.contains("召喚コスト"), "{shown}");
            assert!(!shown.contains(".md") && !shown.contains("seed") && !shown.contains('❷'));
        }
    }

    #[test]
    fn toggling_twice_gives_the_language_back() {
        assert_eq!(Lang::En.toggled(), Lang::Ja);
        assert_eq!(Lang::En.toggled().toggled(), Lang::En);
        assert_eq!(Lang::Ja.code(), "ja");
    }

    #[test]
    fn every_string_is_translated() {
        // Same field in both tables, different text (except the few that are the same word).
        let en = format!("{EN:?}");
        let ja = format!("{JA:?}");
        let fields = |s: &str| s.matches(": \"").count();
        assert_eq!(fields(&en), fields(&ja));
        assert!(ja.contains("開始") && en.contains("Start"));
    }
}
