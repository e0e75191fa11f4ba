"""The 2026 models' published configs (sources.json says where each comes from) and their derivation by hand."""
