// asciichart 1.5 ships no types; only what chart.ts uses.
declare module 'asciichart' {
  export interface PlotConfig {
    min?: number;
    max?: number;
    height?: number;
    offset?: number;
    padding?: string;
    format?: (value: number, index: number) => string;
  }
  export function plot(series: number[] | number[][], config?: PlotConfig): string;
}
