"""The rules files shipped with amunre: the YAML files beside this one are the data."""

# The shipped file a program offers first when it is not told which (`amunre serve`'s start page).
FIRST = "knizia2016"
