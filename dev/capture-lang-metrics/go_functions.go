// Reference for test/race/lang-metrics.test.ts: every function and method of the given Go files with the line of
// its name, the line of its closing brace and its complexity, from Go's own parser (go/ast), counted by the rule
// lang-metrics.ts documents for Go: 1 + if, for (range included), each case clause but default (switch, type
// switch and select), && and ||; function literals count toward the function around them.
// Run by capture.sh; prints JSON {file: [functions]}.
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
)

type fn struct {
	Name       string `json:"name"`
	StartLine  int    `json:"startLine"`
	EndLine    int    `json:"endLine"`
	Complexity int    `json:"complexity"`
}

func main() {
	out := map[string][]fn{}
	for _, path := range os.Args[1:] {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			panic(err)
		}
		list := []fn{}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			c := 1
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
					c++
				case *ast.CaseClause:
					if x.List != nil {
						c++
					}
				case *ast.CommClause:
					if x.Comm != nil {
						c++
					}
				case *ast.BinaryExpr:
					if x.Op == token.LAND || x.Op == token.LOR {
						c++
					}
				}
				return true
			})
			list = append(list, fn{fd.Name.Name, fset.Position(fd.Name.Pos()).Line, fset.Position(fd.Body.Rbrace).Line, c})
		}
		out[filepath.Base(path)] = list
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
