//! `drift_detected` webhooks: one per action a report caused, queued in the
//! report's transaction (`webhooks::events::accord_event`), with
//! `${accord.environment}`, `${accord.driftAction}` (`warn` for a signal
//! under its threshold) and `${accord.admissionState}` as the report left
//! the version.

use super::policy::Step;
use crate::admission::AdmissionState;
use crate::db::AnyConnection;
use crate::store::StoreError;
use crate::store::drift_reports::DriftReportRow;
use crate::store::versions;
use crate::webhooks::events::accord_event;

/// The action a step stands for in a webhook: its own when over the
/// threshold, a warning otherwise.
pub fn action_of(step: &Step) -> &'static str {
    if step.over_threshold {
        step.action.as_str()
    } else {
        "warn"
    }
}

/// Queues `drift_detected` for each of `steps` (none: nothing queued).
pub fn drift_detected(
    conn: &mut AnyConnection,
    row: &DriftReportRow,
    environment: &str,
    steps: &[Step],
    state: AdmissionState,
) -> Result<(), StoreError> {
    if steps.is_empty() {
        return Ok(());
    }
    let version = versions::find_by_id(conn, row.version_id)?.ok_or(StoreError::MissingRow {
        what: "version",
        id: row.version_id,
    })?;
    for step in steps {
        let extra = [
            ("accord.environment", environment),
            ("accord.driftAction", action_of(step)),
            ("accord.admissionState", state.as_str()),
        ];
        accord_event(conn, "drift_detected", &version, &extra)?;
    }
    Ok(())
}
