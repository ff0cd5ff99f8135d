namespace ibpm {}
