// The parts of ECharts the HTML plan draws with: line and custom series, grids, titles,
// marked areas and lines, the SVG renderer. `npm run build` replaces the compiled file with
// a self-contained bundle of just these (scripts/bundle-provider.js), as for the other
// drivers: the npm package carries no node_modules tree for ECharts (about 50 MB), and jsii
// sees no dependency that is not a jsii module.
import { CustomChart, LineChart } from "echarts/charts";
import { GridComponent, MarkAreaComponent, MarkLineComponent, TitleComponent } from "echarts/components";
import { init, use, type EChartsCoreOption } from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

use([LineChart, CustomChart, GridComponent, TitleComponent, MarkAreaComponent, MarkLineComponent, SVGRenderer]);

export { init, type EChartsCoreOption };
