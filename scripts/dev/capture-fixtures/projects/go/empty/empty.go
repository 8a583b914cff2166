package empty

func Nothing() {}
