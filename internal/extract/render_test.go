package extract

import (
	"strings"
	"testing"
)

// TestPlainHeadings checks that bold or italic markup spanning a whole
// heading is dropped from the Markdown, through styling spans, line
// breaks and empty anchors, and that emphasis on a part of a heading,
// or outside headings, stays.
func TestPlainHeadings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<h2><strong>What is social shopping?</strong></h2>`, "## What is social shopping?"},
		{`<h4><br><strong>What does it offer?</strong></h4>`, "#### What does it offer?"},
		{`<h2><span class="ez-toc-section" id="a"></span><b>1. Search intent</b><span class="ez-toc-section-end"> </span></h2>`, "## 1. Search intent"},
		{`<h2><span style="font-weight:400"><b><em>Both marks</em></b></span></h2>`, "## Both marks"},
		{`<h3><strong>Step 1:</strong> Mix the flour</h3>`, "### **Step 1:** Mix the flour"},
		{`<h3><a href="/x"><strong>A linked title</strong></a></h3>`, "### [**A linked title**](/x)"},
		{`<p><strong>A bold paragraph</strong></p>`, "**A bold paragraph**"},
	}
	for _, tt := range tests {
		got := strings.TrimSpace(renderMarkdown(parseFragment(t, tt.in), nil))
		if got != tt.want {
			t.Errorf("renderMarkdown(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
