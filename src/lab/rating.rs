//! Match arithmetic: the Elo difference a score means, with its 95 % error margin (from
//! single games, and from pairs of games that play one opening with the colours
//! reversed), and the sequential probability ratio test (SPRT) that stops a match once a
//! change is shown better or worse.

/// Elo difference for a score fraction `p` (0 < p < 1): `-400 log10(1/p - 1)`.
pub(crate) fn elo_from_score(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The expected score of a player `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub(crate) fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// A player's results over a match: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Results {
    /// Games won.
    pub(crate) wins: u32,
    /// Games drawn.
    pub(crate) draws: u32,
    /// Games lost.
    pub(crate) losses: u32,
}

/// An Elo estimate and the half-width of its 95 % confidence interval (both `None`
/// when the results cannot say: no games, or all won or all lost).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct EloEstimate {
    /// The Elo difference the score means.
    pub(crate) elo: f64,
    /// Half the 95 % interval, in Elo (the interval is asymmetric in Elo; this is the
    /// larger side, so the stated interval is never too narrow).
    pub(crate) margin: f64,
}

impl Results {
    /// Games played.
    pub(crate) fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction: a win 1, a draw 1/2.
    pub(crate) fn score(self) -> f64 {
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
    }

    /// The variance of one game's score (0, 1/2 or 1) in these results.
    fn per_game_variance(self) -> f64 {
        let n = f64::from(self.games());
        let mean = self.score();
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        w * (1.0 - mean).powi(2) + d * (0.5 - mean).powi(2) + l * mean.powi(2)
    }

    /// The Elo difference these results mean, with its 95 % margin (normal
    /// approximation of the mean score, from the trinomial variance of the games).
    pub(crate) fn elo(self) -> Option<EloEstimate> {
        let n = f64::from(self.games());
        let p = self.score();
        // No games, all won, all lost, or all alike (every game drawn): no spread to
        // measure a margin from.
        if self.games() == 0 || p <= 0.0 || p >= 1.0 || self.per_game_variance() <= 0.0 {
            return None;
        }
        let se = (self.per_game_variance() / n).sqrt();
        let low = (p - 1.96 * se).max(1e-6);
        let high = (p + 1.96 * se).min(1.0 - 1e-6);
        // Plus zero turns a -0.0 into 0.0 for printing.
        let elo = elo_from_score(p) + 0.0;
        let margin = (elo - elo_from_score(low)).max(elo_from_score(high) - elo);
        Some(EloEstimate { elo, margin })
    }

    /// The log-likelihood ratio of H1 (the player is `elo1` stronger) against H0 (`elo0`
    /// stronger) for these results, in the normal approximation used by engine testing
    /// frameworks: `n (s1 - s0) (2 x - s0 - s1) / (2 var)` with `x` the mean score, `var`
    /// the per-game variance and `s0`, `s1` the expected scores.
    pub(crate) fn llr(self, elo0: f64, elo1: f64) -> f64 {
        let n = f64::from(self.games());
        let var = self.per_game_variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// A player's results by pairs of games, each pair one opening played with the colours
/// reversed: how many pairs it scored 0, 1/2, 1, 3/2 and 2 points in (the
/// pentanomial count engine testers use). A ballot that favours one colour is won by
/// whoever has that colour, so its two games often split a win and a loss; counted by
/// pairs, such a split is as even as two draws, and the margin is the true one, not
/// the wider one the single games suggest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PairResults {
    /// Pairs by the points scored in them: `[0, 1/2, 1, 3/2, 2]`.
    pub(crate) by_points: [u32; 5],
}

impl PairResults {
    /// Pairs played.
    pub(crate) fn pairs(self) -> u32 {
        self.by_points.iter().sum()
    }

    /// The score fraction over the pairs' games.
    pub(crate) fn score(self) -> f64 {
        let half_points: u32 = (0u32..).zip(self.by_points).map(|(h, n)| h * n).sum();
        f64::from(half_points) / 4.0 / f64::from(self.pairs())
    }

    /// The variance of one pair's mean score (0, 1/4, 1/2, 3/4 or 1).
    fn per_pair_variance(self) -> f64 {
        let n = f64::from(self.pairs());
        let mean = self.score();
        (0u32..)
            .zip(self.by_points)
            .map(|(h, count)| f64::from(count) / n * (f64::from(h) / 4.0 - mean).powi(2))
            .sum()
    }

    /// The Elo difference these pairs mean, with its 95 % margin (normal approximation
    /// of the mean score, from the variance of the pairs); `None` without pairs, or
    /// when every pair scored alike.
    pub(crate) fn elo(self) -> Option<EloEstimate> {
        let n = f64::from(self.pairs());
        let p = self.score();
        let variance = if n > 0.0 {
            self.per_pair_variance()
        } else {
            0.0
        };
        if n == 0.0 || p <= 0.0 || p >= 1.0 || variance <= 0.0 {
            return None;
        }
        let se = (variance / n).sqrt();
        let low = (p - 1.96 * se).max(1e-6);
        let high = (p + 1.96 * se).min(1.0 - 1e-6);
        let elo = elo_from_score(p) + 0.0;
        let margin = (elo - elo_from_score(low)).max(elo_from_score(high) - elo);
        Some(EloEstimate { elo, margin })
    }
}

/// A sequential probability ratio test between `elo0` and `elo1` with error rates
/// `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sprt {
    /// The Elo of the null hypothesis (no better than this).
    pub(crate) elo0: f64,
    /// The Elo of the alternative (at least this much better).
    pub(crate) elo1: f64,
    /// Chance of accepting H1 when H0 holds.
    pub(crate) alpha: f64,
    /// Chance of accepting H0 when H1 holds.
    pub(crate) beta: f64,
}

/// What a sequential test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SprtVerdict {
    /// H1 accepted: better by at least `elo1` (within the error rates).
    Better,
    /// H0 accepted: not better than `elo0`.
    NotBetter,
    /// Not decided yet: play on.
    Undecided,
}

impl Sprt {
    /// The bounds the log-likelihood ratio is compared with: `ln(beta / (1 - alpha))`
    /// and `ln((1 - beta) / alpha)`.
    pub(crate) fn bounds(self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict on `results`.
    pub(crate) fn verdict(self, results: Results) -> SprtVerdict {
        let llr = results.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::Better
        } else if llr <= lower {
            SprtVerdict::NotBetter
        } else {
            SprtVerdict::Undecided
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse_and_known_values_hold() {
        for elo in [-300.0, -50.0, 0.0, 35.0, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        // 64 % is about +100 Elo; 10 to 1 odds are 400 points.
        assert!((elo_from_score(0.64) - 99.95).abs() < 0.01);
        assert!((elo_from_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
    }

    #[test]
    fn the_margin_narrows_with_more_games_and_is_about_right() {
        let small = Results {
            wins: 30,
            draws: 40,
            losses: 30,
        }
        .elo()
        .unwrap();
        let large = Results {
            wins: 300,
            draws: 400,
            losses: 300,
        }
        .elo()
        .unwrap();
        assert_eq!(small.elo, 0.0);
        assert!(large.margin < small.margin / 3.0);
        // 100 games, score 0.5, variance 0.15 a game: se = 0.0387, so 0.5 +- 0.0759,
        // which is about +-53 Elo.
        assert!((small.margin - 53.2).abs() < 0.5, "{}", small.margin);
        assert_eq!(
            Results {
                wins: 5,
                draws: 0,
                losses: 0
            }
            .elo(),
            None
        );
        assert_eq!(Results::default().elo(), None);
        assert_eq!(
            Results {
                wins: 0,
                draws: 8,
                losses: 0
            }
            .elo(),
            None
        );
    }

    #[test]
    fn pairs_that_split_by_colour_narrow_the_margin() {
        // 100 games, each ballot won by whoever had White: 50 wins, 50 losses.
        let games = Results {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        let pairs = PairResults {
            by_points: [0, 0, 50, 0, 0],
        };
        // Every pair even: nothing to measure a spread from, where the single games
        // say +- 69 Elo.
        assert!(games.elo().unwrap().margin > 68.0);
        assert_eq!(pairs.elo(), None);
        // The same 100 games when the wins and losses fall on different ballots.
        let apart = PairResults {
            by_points: [25, 0, 0, 0, 25],
        };
        assert_eq!(apart.score(), 0.5);
        assert!(apart.elo().unwrap().margin > 98.0);
        // Mostly even pairs, a few won: a positive Elo, a narrower margin than the
        // games alone give for the same score.
        let mostly_even = PairResults {
            by_points: [1, 6, 30, 12, 1],
        };
        let e = mostly_even.elo().unwrap();
        // (Those pairs' games: the 30 even pairs taken as 20 drawn twice and 10 split.)
        let same_games = Results {
            wins: 24,
            draws: 58,
            losses: 18,
        };
        assert!((e.elo - same_games.elo().unwrap().elo).abs() < 1e-9);
        assert!(e.elo > 20.0);
        assert!(e.margin < same_games.elo().unwrap().margin);
        assert_eq!(PairResults::default().elo(), None);
    }

    #[test]
    fn the_sprt_decides_on_clear_results_and_waits_on_unclear_ones() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944).abs() < 0.001 && (upper - 2.944).abs() < 0.001);
        let better = Results {
            wins: 700,
            draws: 600,
            losses: 500,
        };
        assert_eq!(sprt.verdict(better), SprtVerdict::Better);
        let worse = Results {
            wins: 500,
            draws: 600,
            losses: 700,
        };
        assert_eq!(sprt.verdict(worse), SprtVerdict::NotBetter);
        let few = Results {
            wins: 6,
            draws: 5,
            losses: 5,
        };
        assert_eq!(sprt.verdict(few), SprtVerdict::Undecided);
        // The LLR at a score exactly between the hypotheses is zero.
        let s0 = score_from_elo(0.0);
        let s1 = score_from_elo(20.0);
        assert!(((s0 + s1) / 2.0 - 0.5144).abs() < 0.001);
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_elo_from_score() {
        use checkers::lab::rating::elo_from_score;
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
    }

    #[test]
    fn example_of_elo() {
        use checkers::lab::rating::Results;
        let r = Results {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = r.elo().unwrap();
        assert!((e.elo - 147.19).abs() < 0.01);
        assert!(e.margin > 50.0 && e.margin < 80.0);
    }

    #[test]
    fn example_of_elo_() {
        use checkers::lab::rating::PairResults;
        // 100 pairs: 5 scored a draw and a loss, 85 two draws or a win and a loss,
        // 10 a win and a draw.
        let pairs = PairResults {
            by_points: [0, 5, 85, 10, 0],
        };
        let e = pairs.elo().unwrap();
        assert!((e.elo - 8.69).abs() < 0.01);
        assert!((e.margin - 13.10).abs() < 0.01);
    }
}
