"""Data: records (specification, slackening thresholds, storage), sensor data, measured records and their
screens, run I/O."""

from .._lazy import attach

_EXPORTS = {
    "drive_coords": "records",
    "forcing_from_meta": "records",
    "forcing_from_spec": "records",
    "record_structure": "records",
    "record_amplitude": "records",
    "slackening_threshold": "records",
    "save_record": "records",
    "load_record": "records",
    "NOISE_SEED_TAG": "sensors",
    "sensor_data": "sensors",
    "intermittent_mask": "sensors",
    "noise_realization": "sensors",
    "MEASURED_PROTOCOL": "measured",
    "measured_record": "measured",
    "estimate_noise_std": "measured",
    "check_at_rest": "measured",
    "read_record_csv": "record_csv",
    "sniff_dialect": "record_csv",
    "RecordFileError": "record_csv",
    "RecordScreenWarning": "screening",
    "nominal_response": "screening",
    "screen_outliers": "outliers",
    "screen_against_model": "screening",
    "setup_log": "runio",
    "write_json": "runio",
    "read_json": "runio",
}
"""Public name -> its module (imported on first access)."""

__getattr__, __dir__, __all__ = attach(__name__, _EXPORTS)
