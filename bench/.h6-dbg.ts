import { createContextManager } from '../src/loop/index.js';
const m = await createContextManager();
const SYSTEM='sys'; const TASK='task text';
m.record({kind:'system',text:SYSTEM}); m.record({kind:'user',text:TASK});
for (let t=0;t<20;t++){ const id='c'+t; m.record({kind:'assistant',text:'Read '+t,toolCalls:[{id,name:'read_file',args:{path:'src/config.py'}}]});
 const lines=['[File: src/config.py (400 lines total)]']; for(let i=0;i<40;i++) lines.push(`${1+t*40+i}:    value = value + 1  # keep the running total for step`);
 m.record({kind:'tool',callId:id,name:'read_file',text:lines.join('\n')}); }
const c = m.assemble({budget:3000});
console.log(c.sections.map(s=>s.id+':'+s.tokens).join(' '), c.dropped);
console.log(c.messages.filter(x=>x.role==='tool').map(x=>x.content.slice(0,80)).join('\n'));
