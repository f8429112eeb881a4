# cli: damoctl (filled in below)
