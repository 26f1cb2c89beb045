//! Provider states with params and ProviderState generators.
