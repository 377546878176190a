//! The loaders' problems in Japanese: every sentence the catalogue and deck loaders (and the
//! TOML reader under them) write, told again in Japanese with the same names and numbers.
//!
//! The loaders build their English sentences in many places; the Japanese is kept here, in one
//! table of sentence shapes, so a player who reads Japanese sees each problem in Japanese. A
//! shape is the English sentence with `{}` where a name or number stands; the Japanese says
//! `{0}`, `{1}`, … for them. A sentence no shape fits (a new one not yet told here) is shown in
//! Japanese as "this place has a problem" with the English after it, never dropped.
//!
//! ```
//! use cards::catalogue::ja::message_ja;
//! assert_eq!(
//!     message_ja("card `X1` (nm) needs `atk`"),
//!     "カード `X1`(nm)には `atk` が必要です"
//! );
//! ```

/// (English shape, Japanese): the loaders' sentences. Longer, more specific shapes first where
/// two could fit the same sentence.
const SHAPES: &[(&str, &str)] = &[
    // The catalogue's head and ids (catalogue/mod.rs).
    (
        "catalogue format {} is not supported (this build reads format {})",
        "カタログ形式 {0} には対応していません(このビルドが読めるのは形式 {1} です)。新しい Tableside で開いてください",
    ),
    (
        "deck format {} is not supported (this build reads format {})",
        "デッキ形式 {0} には対応していません(このビルドが読めるのは形式 {1} です)。新しい Tableside で開いてください",
    ),
    (
        "unknown game `{}` (expected one of: {})",
        "不明なゲーム `{0}` です(次のどれか: {1})",
    ),
    (
        "card id `{}` must be non-empty and use only letters, digits, `-` and `_`",
        "カードID `{0}` が空か、使えない文字を含んでいます(英字・数字・`-`・`_` だけが使えます)",
    ),
    (
        "card id `{}` must be 1–{} characters of A–Z, 0–9 and `-` (it goes into the card's tag)",
        "カードID `{0}` は A–Z・0–9・`-` の1〜{1}文字にしてください(カードのタグに入ります)",
    ),
    (
        "card id `{}` appears twice",
        "カードID `{0}` が二回出てきます",
    ),
    (
        "deck id `{}` appears twice",
        "デッキID `{0}` が二回出てきます",
    ),
    (
        "deck `{}` names card `{}`, which is not in this catalogue",
        "デッキ `{0}` がカード `{1}` を挙げていますが、このカタログにそのカードはありません",
    ),
    // Shared checks of every game (Ctx::need, forbid, in_range).
    (
        "card `{}` ({}) needs `text`: {}",
        "カード `{0}`({1})には `text` が必要です: {2}",
    ),
    (
        "card `{}` ({}) needs `{}`",
        "カード `{0}`({1})には `{2}` が必要です",
    ),
    (
        "card `{}` is of kind `{}`, which has no `{}`",
        "カード `{0}` の種類 `{1}` には `{2}` がありません",
    ),
    (
        "card `{}` has an empty `{}`",
        "カード `{0}` の `{1}` が空です",
    ),
    (
        "{} {} is outside {}..={}",
        "{0} の値 {1} が範囲 {2}〜{3} の外です",
    ),
    ("{} {} is too large", "{0} の値 {1} が大きすぎます"),
    (
        "{} {} is not a multiple of {} (card numbers and the HP gauge move in steps of {})",
        "{0} の値 {1} が {2} の倍数ではありません(カードの数値とHPゲージは {3} 刻みです)",
    ),
    ("unknown kind `{}`", "不明な種類 `{0}` です"),
    // Jaken.
    (
        "unknown Jaken card kind `{}` (expected nm, em or bg)",
        "不明なジャケンのカードの種類 `{0}` です(nm、em、bg のどれか)",
    ),
    (
        "unknown wind `{}` (expected jicha, tacha or ryancha)",
        "不明な風 `{0}` です(jicha、tacha、ryancha のどれか)",
    ),
    (
        "a BG card needs a use limit of at least 1",
        "BGカードの使用回数は1以上にしてください",
    ),
    // JUNK-KEN.
    (
        "unknown JUNK-KEN card kind `{}` (expected character, gear, awakening or field)",
        "不明な JUNK-拳 のカードの種類 `{0}` です(character、gear、awakening、field のどれか)",
    ),
    (
        "unknown hand `{}` (expected rock, scissors or paper: グー, チョキ, パー)",
        "不明な手 `{0}` です(rock、scissors、paper: グー、チョキ、パー のどれか)",
    ),
    (
        "unknown scope `{}` (expected own, opponent or all: 自分, 相手, 全員)",
        "不明な対象 `{0}` です(own、opponent、all: 自分、相手、全員 のどれか)",
    ),
    (
        "unknown action `{}` (expected `atk N`, `draw N` or `hp N`)",
        "不明なアクション `{0}` です(`atk N`、`draw N`、`hp N` のどれか)",
    ),
    (
        "action `{}` needs an amount, e.g. `{}`",
        "アクション `{0}` には数が必要です(例: `{1}`)",
    ),
    (
        "action `{}`: the amount must be 1 to {}",
        "アクション `{0}`: 数は1〜{1}にしてください",
    ),
    (
        "dice roll `{}` {} (expected e.g. `{}` or `{}`)",
        "ダイスロール `{0}` {1}(例: `{2}`、`{3}`)",
    ),
    ("`{}` is empty", "`{0}` が空です"),
    (
        "`{}` must name at least one hand",
        "`{0}` には手を一つ以上書いてください",
    ),
    ("`{}` names {} twice", "`{0}` に {1} が二回出てきます"),
    (
        "a character needs an action for at least one hand",
        "キャラクターには少なくとも一つの手のアクションが必要です",
    ),
    ("a category name is empty", "カテゴリ名が空です"),
    (
        "category `{}` is listed twice",
        "カテゴリ `{0}` が二回出てきます",
    ),
    (
        "a Bullet card needs `bullet_hands`, the hands with the Bullet mark",
        "バレットのカードには `bullet_hands`(バレットマークのある手)が必要です",
    ),
    (
        "a Bullet card needs `bullet_cost`, the counters its effect removes",
        "バレットのカードには `bullet_cost`(効果で取り除くカウンターの数)が必要です",
    ),
    (
        "`{}` only goes with `bullet`",
        "`{0}` は `bullet` と一緒にだけ使えます",
    ),
    (
        "a Dice-rolling card needs `dice_effect`, what holds while the roll succeeded",
        "ダイスロールのカードには `dice_effect`(ロールが成功している間の効果)が必要です",
    ),
    (
        "`dice_effect` only goes with `dice`",
        "`dice_effect` は `dice` と一緒にだけ使えます",
    ),
    (
        "`{}` needs `support_hand`, the supporter's attribute",
        "`{0}` には `support_hand`(サポーターの属性)が必要です",
    ),
    (
        "a supporter needs `support_action`, e.g. `atk 1`",
        "サポーターには `support_action` が必要です(例: `atk 1`)",
    ),
    (
        "a <PASSIVE> supporter needs `support_skill`",
        "<PASSIVE> のサポーターには `support_skill` が必要です",
    ),
    (
        "an awakening card targets a 【character】 or a 《category》, not both",
        "覚醒カードの対象は【キャラクター】か《カテゴリ》のどちらか一方です",
    ),
    (
        "card `{}` (awakening) needs `target_character` (【name】) or `target_category` (《category》)",
        "カード `{0}`(覚醒)には `target_character`(【名前】)か `target_category`(《カテゴリ》)が必要です",
    ),
    // Rockman EXE.
    (
        "unknown Rockman EXE card kind `{}` (expected navi, virus, chip, battler or style)",
        "不明なロックマンエグゼのカードの種類 `{0}` です(navi、virus、chip、battler、style のどれか)",
    ),
    (
        "unknown target `{}` (expected one of: {})",
        "不明な対象 `{0}` です(次のどれか: {1})",
    ),
    (
        "`end_phase` is empty (leave the field out when the card has no end-phase effect)",
        "`end_phase` が空です(エンドフェイズの効果がないカードではこの欄を書かないでください)",
    ),
    (
        "`evolves_from = \"{}\"` must name another card of this set",
        "`evolves_from = \"{0}\"` はこのセットの別のカードを指してください",
    ),
    (
        "`evolves_to` is empty (leave the field out when the virus does not evolve)",
        "`evolves_to` が空です(進化しないウイルスではこの欄を書かないでください)",
    ),
    (
        "`evolves_to` entry `{}` must name another card of this set, once",
        "`evolves_to` の `{0}` はこのセットの別のカードを一度だけ指してください",
    ),
    (
        "chip `{}` has a `target` but no `attack`",
        "チップ `{0}` に `target` がありますが `attack` がありません",
    ),
    (
        "a chip without `attack` does only what its text says",
        "`attack` のないチップはテキストに書かれたことだけをします",
    ),
    (
        "a battler card does only what its text says",
        "バトラーカードはテキストに書かれたことだけをします",
    ),
    (
        "a style card does only what its text says",
        "スタイルカードはテキストに書かれたことだけをします",
    ),
    (
        "a `manual` target is described by the text",
        "`manual` の対象はテキストで説明します",
    ),
    (
        "card `{}` evolves from `{}`, which is not a virus of this set",
        "カード `{0}` の進化元 `{1}` はこのセットのウイルスではありません",
    ),
    (
        "card `{}` evolves from `{}`, but `{}` does not list `{}` in `evolves_to`",
        "カード `{0}` は `{1}` から進化しますが、`{2}` の `evolves_to` に `{3}` がありません",
    ),
    (
        "card `{}` evolves into `{}`, which is not a virus of this set",
        "カード `{0}` の進化先 `{1}` はこのセットのウイルスではありません",
    ),
    (
        "card `{}` evolves into `{}`, but `{}` does not say `evolves_from = \"{}\"`",
        "カード `{0}` は `{1}` に進化しますが、`{2}` に `evolves_from = \"{3}\"` がありません",
    ),
    (
        "card `{}` (level {}) evolves into `{}` (level {}): an evolution (レベルアップ) must raise the level",
        "カード `{0}`(レベル {1})の進化先 `{2}` はレベル {3} です。進化(レベルアップ)ではレベルが上がらなければなりません",
    ),
    // Space Junk.
    (
        "unknown Space Junk card kind `{}` (expected character or junk)",
        "不明なスペースジャンクのカードの種類 `{0}` です(character か junk)",
    ),
    // Yomi.
    (
        "this is a {} catalogue, not a Yomi one",
        "これは {0} のカタログで、Yomi のものではありません",
    ),
    (
        "unknown timing `{}` (expected one of: {})",
        "不明なタイミング `{0}` です(次のどれか: {1})",
    ),
    ("an ability needs its text", "能力にはテキストが必要です"),
    (
        "`character` must name the id of this card's character card",
        "`character` にはこのカードのキャラクターカードのIDを書いてください",
    ),
    (
        "unknown rank `{}` (expected 2 to 10, J, Q, K or A)",
        "不明なランク `{0}` です(2〜10、J、Q、K、A のどれか)",
    ),
    ("unknown rank `{}`", "不明なランク `{0}` です"),
    (
        "unknown suit `{}` (expected spades, hearts, diamonds or clubs)",
        "不明なスート `{0}` です(spades、hearts、diamonds、clubs のどれか)",
    ),
    (
        "a move card needs a top and a bottom end",
        "技のカードには上端と下端が必要です",
    ),
    (
        "unknown Yomi card kind `{}` (expected character, move or joker)",
        "不明な Yomi のカードの種類 `{0}` です(character、move、joker のどれか)",
    ),
    (
        "unknown move kind `{}` (expected attack, throw, block, dodge or ability)",
        "不明な技の種類 `{0}` です(attack、throw、block、dodge、ability のどれか)",
    ),
    (
        "the {} end of card `{}` is an ability end, which needs `abilities`",
        "カード `{1}` の{0}端は能力の端なので `abilities` が必要です",
    ),
    (
        "the {} end of card `{}` ({}) needs `{}`",
        "カード `{1}` の{0}端({2})には `{3}` が必要です",
    ),
    (
        "the {} end of card `{}` is a {}, which has no `{}` (only an attack can be blocked)",
        "カード `{1}` の{0}端は {2} なので `{3}` はありません(ブロックできるのは攻撃だけです)",
    ),
    (
        "the {} end of card `{}` is a {}, which has no `{}` (only attacks are mix-ups)",
        "カード `{1}` の{0}端は {2} なので `{3}` はありません(ミックスアップになるのは攻撃だけです)",
    ),
    (
        "the {} end of card `{}` is a {}, which has no `{}`",
        "カード `{1}` の{0}端は {2} なので `{3}` はありません",
    ),
    (
        "card `{}` is a {}: only an Ace's super moves need Aces",
        "カード `{0}` は {1} です。エースを必要とするのはエースの超必殺技だけです",
    ),
    (
        "speed {} must be 0.0 to 20.0 in steps of 0.1",
        "速さ {0} は 0.0〜20.0 の 0.1 刻みにしてください",
    ),
    (
        "unknown combo role `{}` (expected starter, linker or ender)",
        "不明なコンボの役割 `{0}` です(starter、linker、ender のどれか)",
    ),
    (
        "fixed deck `{}` must list exactly one character card (it lists {}: {})",
        "固定デッキ `{0}` にはキャラクターカードをちょうど1枚入れてください(今は {1} 枚: {2})",
    ),
    (
        "fixed deck `{}` of character `{}` lists `{}`, a card of character `{}`",
        "キャラクター `{1}` の固定デッキ `{0}` に、キャラクター `{3}` のカード `{2}` が入っています",
    ),
    (
        "fixed deck `{}` is not a full Yomi deck (one card of each rank 2–A in each suit, and {} Jokers): {}",
        "固定デッキ `{0}` は Yomi のデッキとしてそろっていません(各スートに 2〜A を1枚ずつ、ジョーカー {1} 枚): {2}",
    ),
    (
        "card `{}` names `{}` as its character, but `{}` is not a character card",
        "カード `{0}` はキャラクターとして `{1}` を挙げていますが、`{2}` はキャラクターカードではありません",
    ),
    (
        "card `{}` names character `{}`, which is not in this catalogue",
        "カード `{0}` が挙げるキャラクター `{1}` はこのカタログにありません",
    ),
    (
        "card `{}` is the {} of {} of character `{}`, like card `{}`: a character has one card per rank and suit",
        "カード `{0}` はキャラクター `{3}` の {2} の {1} で、カード `{4}` と同じです。キャラクターのカードはランクとスートごとに1枚です",
    ),
    (
        "character `{}` already has fixed deck `{}`: Yomi decks are fixed, one per character",
        "キャラクター `{0}` にはすでに固定デッキ `{1}` があります。Yomi のデッキはキャラクターごとに一つです",
    ),
    (
        "character `{}` has no fixed deck: add a [[decks]] entry listing its character card and its {} cards",
        "キャラクター `{0}` に固定デッキがありません。キャラクターカードとその {1} 枚を挙げる [[decks]] を加えてください",
    ),
    // Deck files (decks.rs).
    (
        "a deck needs an owner (the player's name)",
        "デッキには持ち主(プレイヤーの名前)が必要です",
    ),
    (
        "copy {} is listed twice (a physical card is in one place only)",
        "コピー {0} が二回出てきます(一枚の実物のカードは一か所にしか置けません)",
    ),
    (
        "the deck is a {} deck, the catalogue is for {}",
        "このデッキは {0} のデッキですが、カタログは {1} のものです",
    ),
    (
        "the deck uses set `{}`, the catalogue is set `{}`",
        "このデッキはセット `{0}` のものですが、カタログはセット `{1}` です",
    ),
    (
        "set `{}` has no card {}",
        "セット `{0}` にカード {1} はありません",
    ),
    // The TOML reader (serde and toml's own sentences).
    ("missing field `{}`", "必要な欄 `{0}` がありません"),
    (
        "unknown field `{}`, expected one of {}",
        "不明な欄 `{0}` です(使える欄: {1})",
    ),
    (
        "unknown field `{}`, expected {}",
        "不明な欄 `{0}` です(使える欄: {1})",
    ),
    (
        "unknown field `{}`, there are no fields",
        "不明な欄 `{0}` です(ここには欄を書けません)",
    ),
    (
        "unknown variant `{}`, expected one of {}",
        "不明な値 `{0}` です(次のどれか: {1})",
    ),
    (
        "unknown variant `{}`, expected {}",
        "不明な値 `{0}` です(次のどれか: {1})",
    ),
    (
        "invalid type: {}, expected {}",
        "値の型が違います: {0}(求められているのは {1})",
    ),
    (
        "invalid value: {}, expected {}",
        "値が正しくありません: {0}(求められているのは {1})",
    ),
    (
        "invalid length {}, expected {}",
        "長さ {0} が正しくありません(求められているのは {1})",
    ),
    ("duplicate field `{}`", "欄 `{0}` が二回出てきます"),
    ("duplicate key `{}`", "キー `{0}` が二回出てきます"),
    ("duplicate key", "同じキーが二回出てきます"),
    // TOML's syntax errors say what was found and what should have come.
    (
        "{}, expected {}",
        "TOML の書き方に誤りがあります: {0}(ここに来るべきもの: {1})",
    ),
];

/// Words that stand in a shape's `{}` and are said in Japanese too (a dice roll's fault).
const PHRASES: &[(&str, &str)] = &[
    ("has unbalanced braces", "の括弧が対になっていません"),
    ("has a bad dice count", "のダイスの数が読めません"),
    ("has no condition", "に条件がありません"),
    ("has bad die faces", "のダイスの面の数が読めません"),
    ("has an unknown comparison", "の比較が読めません"),
    ("has a bad value", "の値が読めません"),
    ("must roll 1 to 9 dice", "は1〜9個のダイスにしてください"),
    (
        "must use dice of 2 to 100 faces",
        "は2〜100面のダイスにしてください",
    ),
    ("can never succeed", "は決して成功しません"),
    ("always succeeds", "は必ず成功します"),
];

/// What a sentence no shape fits says in Japanese before the English.
const UNTOLD: &str = "ここに問題があります(英語の説明): ";

/// The parts of `text` that stand where `shape` says `{}`, when `text` has that shape.
fn fit<'t>(shape: &str, text: &'t str) -> Option<Vec<&'t str>> {
    let literals: Vec<&str> = shape.split("{}").collect();
    let (first, rest) = literals.split_first()?;
    let mut left = text.strip_prefix(first)?;
    let mut parts = Vec::with_capacity(rest.len());
    for (i, literal) in rest.iter().enumerate() {
        let last = i + 1 == rest.len();
        let end = if last {
            // The last literal closes the sentence: the part runs to it.
            if !left.ends_with(literal) {
                return None;
            }
            left.len() - literal.len()
        } else if literal.is_empty() {
            return None;
        } else {
            left.find(literal)?
        };
        let part = &left[..end];
        if part.is_empty() {
            return None;
        }
        parts.push(part);
        left = &left[end + literal.len()..];
    }
    Some(parts)
}

/// Fills a Japanese sentence's `{0}`, `{1}`, … with `parts`.
fn fill(ja: &str, parts: &[&str]) -> String {
    let mut out = ja.to_owned();
    for (i, part) in parts.iter().enumerate() {
        let part = PHRASES
            .iter()
            .find(|(en, _)| en == part)
            .map_or(*part, |(_, ja)| ja);
        out = out.replace(&format!("{{{i}}}"), part);
    }
    out
}

/// One sentence of a loader (or of the TOML reader under it) in Japanese. TOML's own syntax
/// errors (a sentence and the line it is about) are said as such, with the English detail.
pub fn message_ja(en: &str) -> String {
    let first_line = en.lines().next().unwrap_or(en);
    for (shape, ja) in SHAPES {
        if let Some(parts) = fit(shape, en) {
            return fill(ja, &parts);
        }
    }
    if en.contains('\n') || first_line.starts_with("invalid ") || first_line.starts_with("expected")
    {
        return format!("TOML の書き方に誤りがあります: {}", en.trim_end());
    }
    format!("{UNTOLD}{en}")
}

/// True when [`message_ja`] has a Japanese sentence for `en` (not only the English after a
/// Japanese lead-in).
pub fn is_told(en: &str) -> bool {
    !message_ja(en).starts_with(UNTOLD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_is_told_and_keeps_its_names() {
        for (shape, ja) in SHAPES {
            let n = shape.matches("{}").count();
            let parts: Vec<String> = (0..n).map(|i| format!("P{i}Q")).collect();
            let mut en = (*shape).to_owned();
            for p in &parts {
                en = en.replacen("{}", p, 1);
            }
            let got = message_ja(&en);
            for p in &parts {
                assert!(got.contains(p.as_str()), "{shape}: `{p}` kept in {got}");
            }
            assert!(!got.contains('{') || ja.contains("{{"), "{shape}: {got}");
            assert!(is_told(&en), "{shape}");
        }
    }

    #[test]
    fn a_dice_roll_fault_is_told_in_japanese() {
        let got = message_ja(
            "dice roll `{1d0=6}` has bad die faces (expected e.g. `{1d6=6}` or `{2d6>=10}`)",
        );
        assert_eq!(
            got,
            "ダイスロール `{1d0=6}` のダイスの面の数が読めません(例: `{1d6=6}`、`{2d6>=10}`)"
        );
    }

    #[test]
    fn a_sentence_no_shape_fits_keeps_its_english() {
        let got = message_ja("something new went wrong");
        assert!(got.starts_with("ここに問題があります"), "{got}");
        assert!(got.ends_with("something new went wrong"));
        assert!(!is_told("something new went wrong"));
    }

    #[test]
    fn real_loader_problems_are_told_in_japanese() {
        let text = crate::games::jaken::demo::TOML;
        let cases = [
            text.replacen("format = 1", "format = 9", 1),
            text.replacen("game = \"jaken\"", "game = \"chess\"", 1),
            text.replacen("kind = \"nm\"", "kind = \"xx\"", 1),
            text.replacen("atk = ", "attack = ", 1),
            text.replacen("cost = 1", "cost = \"one\"", 1),
            text.replacen("[set]", "[set]\n[set]", 1),
            text.replacen("[set]", "[set", 1),
        ];
        for case in &cases {
            let Err(e) = crate::catalogue::Catalogue::load("x.toml", case) else {
                panic!("refused: {case:.80}");
            };
            assert!(is_told(&e.message), "told in Japanese: {}", e.message);
            let ja = e.ja();
            assert!(ja.starts_with("x.toml:"), "{ja}");
        }
    }
}
