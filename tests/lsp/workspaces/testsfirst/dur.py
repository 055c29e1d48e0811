# parse_duration(text): "1h30m" -> 5400 seconds; "90s" -> 90; raises ValueError on junk
def parse_duration(text):
    raise NotImplementedError
