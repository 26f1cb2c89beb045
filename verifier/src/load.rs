//! Loading the contracts of a [`ContractSource`].

use accord_dsl::pact::read_contract;

use crate::config::{ContractSource, SourcedContract};
use crate::error::VerifyError;

/// The contracts to verify, each checked to be for `provider`.
pub fn load(source: &ContractSource, provider: &str) -> Result<Vec<SourcedContract>, VerifyError> {
    let contracts = match source {
        ContractSource::Loaded(list) => list.clone(),
        ContractSource::Files(paths) => paths
            .iter()
            .map(|path| {
                let text =
                    std::fs::read_to_string(path).map_err(|source| VerifyError::ReadContract {
                        path: path.clone(),
                        source,
                    })?;
                let origin = path.display().to_string();
                let contract = read_contract(&text, &origin)?;
                Ok(SourcedContract::new(contract, origin))
            })
            .collect::<Result<Vec<_>, VerifyError>>()?,
    };
    for c in &contracts {
        if c.contract.provider.name != provider {
            return Err(VerifyError::WrongProvider {
                source_name: c.source.clone(),
                expected: provider.to_string(),
                found: c.contract.provider.name.clone(),
            });
        }
    }
    Ok(contracts)
}
