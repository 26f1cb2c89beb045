//! Which interactions may run concurrently: those sharing a provider-state
//! name form one chain replayed in contract order; chains are independent.

use std::collections::HashMap;

use accord_dsl::Interaction;

/// Chains of interaction indices (each in ascending order), ordered by
/// their first index. Only the indices `keep` accepts are scheduled.
pub fn chains(
    interactions: &[Interaction],
    keep: impl Fn(&Interaction) -> bool,
) -> Vec<Vec<usize>> {
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let mut by_state: HashMap<&str, usize> = HashMap::new();
    for (index, interaction) in interactions.iter().enumerate() {
        if !keep(interaction) {
            continue;
        }
        let states = &interaction.meta().provider_states;
        let mut owners: Vec<usize> = states
            .iter()
            .filter_map(|s| by_state.get(s.name.as_str()).copied())
            .collect();
        owners.sort_unstable();
        owners.dedup();
        let target = match owners.split_first() {
            Some((&first, rest)) => {
                // Merge every other chain that shares a state into the first.
                for &other in rest.iter().rev() {
                    let moved = std::mem::take(&mut chains[other]);
                    chains[first].extend(moved);
                    by_state
                        .values_mut()
                        .filter(|c| **c == other)
                        .for_each(|c| *c = first);
                }
                chains[first].sort_unstable();
                first
            }
            None => {
                chains.push(Vec::new());
                chains.len() - 1
            }
        };
        chains[target].push(index);
        for s in states {
            by_state.insert(s.name.as_str(), target);
        }
    }
    chains.retain(|c| !c.is_empty());
    chains
}

#[cfg(test)]
mod tests {
    use accord_dsl::model::{HttpInteraction, ProviderState};

    use super::*;

    fn with_states(names: &[&str]) -> Interaction {
        let mut i = HttpInteraction::default();
        i.meta.provider_states = names.iter().map(|n| ProviderState::named(*n)).collect();
        Interaction::Http(i)
    }

    #[test]
    fn interactions_sharing_a_state_stay_in_one_ordered_chain() {
        let list = vec![
            with_states(&["a"]),
            with_states(&[]),
            with_states(&["b"]),
            with_states(&["a"]),
            with_states(&[]),
        ];
        assert_eq!(
            chains(&list, |_| true),
            vec![vec![0, 3], vec![1], vec![2], vec![4]]
        );
    }

    #[test]
    fn an_interaction_with_two_states_joins_their_chains() {
        let list = vec![
            with_states(&["a"]),
            with_states(&["b"]),
            with_states(&["a", "b"]),
            with_states(&["b"]),
        ];
        assert_eq!(chains(&list, |_| true), vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn filtered_out_interactions_are_not_scheduled() {
        let list = vec![with_states(&["a"]), with_states(&["a"])];
        let kept = chains(&list, |i| i.meta().provider_states.len() > 5);
        assert!(kept.is_empty());
    }
}
