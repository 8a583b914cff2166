package broken

func Broken() int { return "not a number" }
