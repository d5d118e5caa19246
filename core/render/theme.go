package render

import "image/color"

// hex turns 0xRRGGBB into an opaque color.
func hex(v uint32) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// none is the absent fill or stroke.
var none = color.NRGBA{}

// The palette every view shares.
var (
	colBackground = hex(0xf6f7f9)
	colPanel      = hex(0xffffff)
	colInk        = hex(0x1f2933) // titles, names
	colText       = hex(0x3e4c59) // body text
	colMuted      = hex(0x7b8794) // secondary text
	colFaint      = hex(0xcbd2d9) // hairlines
	colRule       = hex(0xe4e7eb)

	colAccent     = hex(0x3b5bdb) // import arrows, links
	colAccentSoft = hex(0xdbe4ff)
	colHub        = hex(0xe8590c)
	colHubSoft    = hex(0xfff0e0)
	colCycle      = hex(0xc2255c)

	colTarget     = hex(0xf08c00)
	colTargetSoft = hex(0xfff6d6)
	colCaller     = hex(0x1c7ed6)
	colCallerSoft = hex(0xe7f5ff)
	colCallee     = hex(0x2f9e44)
	colCalleeSoft = hex(0xebfbee)
	colTest       = hex(0x7048e8)
	colTestSoft   = hex(0xf3f0ff)
	colWeak       = hex(0x868e96)
)

// districtHues are the fills and borders districts cycle through, one per
// top-level directory so that siblings share a colour.
var districtHues = []struct{ fill, line, ink color.NRGBA }{
	{hex(0xeef3ff), hex(0x91a7ff), hex(0x364fc7)},
	{hex(0xe9f9f1), hex(0x8ce99a), hex(0x2b8a3e)},
	{hex(0xfff4e6), hex(0xffc078), hex(0xd9480f)},
	{hex(0xf8f0fc), hex(0xe599f7), hex(0x9c36b5)},
	{hex(0xe3fafc), hex(0x66d9e8), hex(0x0b7285)},
	{hex(0xfff9db), hex(0xffd43b), hex(0xe67700)},
	{hex(0xfff0f6), hex(0xfaa2c1), hex(0xc2255c)},
	{hex(0xf1f3f5), hex(0xadb5bd), hex(0x495057)},
}

// kindColors are the badge colours of board claims and decisions.
var kindColors = map[string]struct{ fill, ink color.NRGBA }{
	"hypothesis": {hex(0xf3f0ff), hex(0x6741d9)},
	"finding":    {hex(0xebfbee), hex(0x2b8a3e)},
	"question":   {hex(0xfff9db), hex(0xe67700)},
	"plan":       {hex(0xe7f5ff), hex(0x1971c2)},
	"test":       {hex(0xe3fafc), hex(0x0b7285)},
	"edit":       {hex(0xfff4e6), hex(0xd9480f)},
	"mark":       {hex(0xebfbee), hex(0x2b8a3e)},
	"skip":       {hex(0xf1f3f5), hex(0x495057)},
}

func kindColor(kind string) (fill, ink color.NRGBA) {
	if c, ok := kindColors[kind]; ok {
		return c.fill, c.ink
	}
	return hex(0xf1f3f5), hex(0x495057)
}

// over is c composited over an opaque background bg.
func over(c, bg color.NRGBA) color.NRGBA {
	a := int(c.A)
	mix := func(x, y uint8) uint8 { return uint8((int(x)*a + int(y)*(255-a) + 127) / 255) }
	return color.NRGBA{R: mix(c.R, bg.R), G: mix(c.G, bg.G), B: mix(c.B, bg.B), A: 0xff}
}
