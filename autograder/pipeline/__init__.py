"""The cohort pipeline behind `make grade` and `make collect`: hand-ins in, gradebook, CSVs, feedback and reports
out."""
