"""amunre: play, study and change the rules of Amun-Re, written as data."""
