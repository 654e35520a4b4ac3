"""Model suites through torch 2.x and Fathom (`fathom-torch sweep`): see run.py."""
