import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';

export interface DailyChartPoint {
  day: string;
  Views: number;
  'Unique visitors': number;
  Leads: number;
}

/** Views, unique visitors and leads per day (loaded apart from the stats screen: see AnalyticsSection). */
export default function DailyChart({ data }: { data: DailyChartPoint[] }) {
  return (
    <AreaChart
      h={240}
      data={data}
      dataKey="day"
      series={[
        { name: 'Views', color: 'blue.6' },
        { name: 'Unique visitors', color: 'teal.6' },
        { name: 'Leads', color: 'orange.6' },
      ]}
      curveType="monotone"
      withLegend
      withDots={data.length <= 31}
      tickLine="none"
      gridAxis="y"
    />
  );
}
